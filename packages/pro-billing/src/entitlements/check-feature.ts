import type { BillingPlans, FeatureLimit, PlanDefinition } from '../model.js';
import { isMetered } from '../plans/index.js';

/** The answer of `billing.check`. */
export interface EntitlementDecision {
  readonly allowed: boolean;
  readonly feature: string;
  /** The plan that applies to the tenant now. */
  readonly plan: string;
  /**
   * What the plan allows: `true`/`false` for an on/off feature, a number for a limit (for a metered feature: the
   * units included per period), `null` when a metered feature has no limit (overage is charged).
   */
  readonly limit: boolean | number | null;
  /** The amount asked for (the total the tenant would reach: current seats + 1 when inviting). */
  readonly requested: number;
  /** Units of a metered feature used in the current period (absent for other features). */
  readonly used?: number;
  /** The first plan, in declared order after the tenant's, that allows the request; `null` when none does. */
  readonly upgradeTo: string | null;
}

/** Whether `limit` allows `requested` (with `used` units of a metered feature already used this period). */
export function allows(limit: FeatureLimit | undefined, requested: number, used: number): boolean {
  if (limit === undefined || limit === false) return false;
  if (limit === true) return true;
  if (typeof limit === 'number') return requested <= limit;
  return limit.overage !== undefined || used + requested <= limit.included;
}

/** What a decision reports as the limit. */
export function limitOf(limit: FeatureLimit | undefined): boolean | number | null {
  if (limit === undefined) return false;
  if (isMetered(limit)) return limit.overage !== undefined ? null : limit.included;
  return limit;
}

/** The first plan after `current` (in declared order: cheapest first) that allows the request, else any other that does. */
export function upgradeFor(plans: BillingPlans, current: string, feature: string, requested: number, used: number): string | null {
  const ids = Object.keys(plans.plans);
  const after = ids.slice(ids.indexOf(current) + 1);
  const allowing = (id: string) => allows((plans.plans[id] as PlanDefinition).features?.[feature], requested, used);
  return after.find(allowing) ?? ids.find((id) => id !== current && allowing(id)) ?? null;
}
