import { currentTenant, type HandlerContext, type Middleware, type MiddlewareRequest } from '@framework/runtime';
import { BillingHttpError } from '../errors.js';
import type { EntitlementDecision } from './check-feature.js';

/** The amount a request asks for: a number, or computed from the request (current seats + 1). */
export type RequestedAmount = number | ((ctx: HandlerContext, request: MiddlewareRequest<HandlerContext>) => number | Promise<number>);

/** What the middleware needs of the billing object. */
export interface FeatureChecker {
  check(tenant: string, feature: string, requested?: number): Promise<EntitlementDecision>;
}

/** The 402/403 an over-limit decision answers, naming the feature, the limit and the plan that allows more. */
export function limitError(decision: EntitlementDecision): BillingHttpError {
  const { feature, plan, limit, requested, used, upgradeTo } = decision;
  const what =
    limit === false ? `The "${plan}" plan does not include "${feature}".`
    : used !== undefined ? `The "${plan}" plan includes ${String(limit)} "${feature}" per period; ${used} used, ${requested} more asked for.`
    : `The "${plan}" plan allows ${String(limit)} "${feature}"; this would make ${requested}.`;
  const details = { feature, plan, limit, requested, ...(used === undefined ? {} : { used }), upgradeTo };
  return upgradeTo
    ? new BillingHttpError('FEATURE_LIMIT_EXCEEDED', `${what} Upgrade to "${upgradeTo}" to allow it.`, details)
    : new BillingHttpError('FEATURE_LIMIT_REACHED', `${what} No plan allows more: free some first.`, details);
}

/**
 * Middleware answering 402 `FEATURE_LIMIT_EXCEEDED` (or 403 `FEATURE_LIMIT_REACHED`) before the route runs when the
 * tenant's plan does not allow `requested` of `feature`. Put it after the tenancy middleware (it reads
 * `ctx.tenant`, else `currentTenant()`); without a tenant: 400 `TENANT_REQUIRED`.
 */
export function requireFeatureMiddleware(checker: FeatureChecker, feature: string, requested: RequestedAmount | undefined): Middleware<HandlerContext> {
  return {
    name: `requireFeature(${feature})`,
    async before(request) {
      const tenant = request.ctx.tenant?.id ?? currentTenant()?.id;
      if (!tenant) {
        throw new BillingHttpError('TENANT_REQUIRED', `This route checks the "${feature}" entitlement of a tenant and the request has none: put the tenancy middleware before requireFeature.`);
      }
      const amount = typeof requested === 'function' ? await requested(request.ctx, request) : requested;
      const decision = await checker.check(tenant, feature, amount);
      if (!decision.allowed) throw limitError(decision);
    },
  };
}
