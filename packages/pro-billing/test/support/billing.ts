import { runWithTenant } from '@framework/runtime';

export { createBilling } from '../../src/index.js';

/** Runs `fn` as the tenant (what a request after the tenancy middleware does). */
export function runWithTenantForTests<T>(tenant: string, fn: () => Promise<T>): Promise<T> {
  return runWithTenant({ id: tenant }, fn);
}
