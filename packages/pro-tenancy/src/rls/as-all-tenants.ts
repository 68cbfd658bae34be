import { currentTenant, getRootLogger, runWithTenant } from '@framework/runtime';
import { TenancyUsageError } from '../errors.js';
import { runAsAllTenants } from './all-tenants-scope.js';

/**
 * The one escape hatch across tenants: inside `fn` the policies let statements see every tenant's rows. Each use is
 * logged (warn, with the reason and the tenant it was called from) so cross-tenant access can be audited. For jobs
 * such as billing runs or offboarding exports; a request path should not need it. Code inside that runs
 * `runWithTenant({ id }, ...)` is back to that one tenant.
 */
export async function asAllTenants<T>(reason: string, fn: () => Promise<T> | T): Promise<T> {
  if (typeof reason !== 'string' || reason.trim().length === 0) {
    throw new TenancyUsageError('asAllTenants(reason, fn) needs a reason (it is logged with every cross-tenant access), e.g. asAllTenants("nightly billing run", ...).');
  }
  getRootLogger().warn('cross-tenant access', { reason, calledFromTenant: currentTenant()?.id ?? null });
  return runWithTenant(undefined, () => runAsAllTenants(reason, fn));
}
