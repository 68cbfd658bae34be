import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * The tenant a request, message or job acts for. The runtime only carries it: resolving it (token claim, header,
 * subdomain, path) is `@framework-pro/tenancy`'s job; reading it is anyone's (`currentTenant()`), so a free package
 * (data, storage, logs) can follow the tenant without depending on a pro package.
 */
export interface TenantInfo {
  /** The tenant's id, as the app names tenants (`acme`, a UUID, ...). */
  readonly id: string;
}

/**
 * One holder per request (or task invocation): the middleware that resolves the tenant runs inside the request's
 * async context but after it started, so it fills the holder rather than starting a new context.
 */
interface TenantHolder {
  tenant: TenantInfo | undefined;
}

const tenantScope = new AsyncLocalStorage<TenantHolder>();

/**
 * The tenant of the code running now: the request's (once resolved), the one given to `runWithTenant`, or
 * `undefined` outside any tenant (no tenancy, a public route, a cron).
 */
export function currentTenant(): TenantInfo | undefined {
  return tenantScope.getStore()?.tenant;
}

/**
 * Runs `fn` with `tenant` as the current tenant (a queue message carrying its tenant, a job per tenant, a test). Code
 * it calls, awaited or not, sees that tenant; code outside does not. `undefined` runs `fn` outside any tenant.
 */
export function runWithTenant<T>(tenant: TenantInfo | undefined, fn: () => T): T {
  return tenantScope.run({ tenant: tenant === undefined ? undefined : Object.freeze({ ...tenant }) }, fn);
}

/**
 * Opens an empty tenant scope for one request: `fn` (the middleware and the route) runs in it, and
 * `setRequestTenant` fills it. The HTTP handler calls this; route code does not.
 */
export function runInTenantScope<T>(fn: () => T): T {
  return tenantScope.run({ tenant: undefined }, fn);
}

/**
 * Sets the tenant of the running request (what `currentTenant()` returns from now on, for the rest of the request)
 * and `ctx.tenant`. Called by the middleware that resolves the tenant. Returns false, and sets nothing, when no scope
 * is open (called outside a request handler).
 */
export function setRequestTenant(ctx: { tenant?: TenantInfo } | undefined, tenant: TenantInfo): boolean {
  const holder = tenantScope.getStore();
  if (!holder) return false;
  const frozen = Object.freeze({ ...tenant });
  holder.tenant = frozen;
  if (ctx) (ctx as { tenant?: TenantInfo }).tenant = frozen;
  return true;
}
