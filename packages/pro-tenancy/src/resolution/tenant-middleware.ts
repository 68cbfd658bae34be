import { currentTenant, setRequestTenant, type HandlerContext, type Middleware, type TenantInfo } from '@framework/runtime';
import { TenancyHttpError } from '../errors.js';
import { prepareTenantResolution, resolveTenant, tenantSourcesHint } from './resolve-tenant.js';
import type { ResolvedTenantResolutionOptions, TenantResolutionOptions } from './tenant-resolution-options.js';

/** The middleware's name (logs, `handlerInfo.middleware`). */
export const TENANT_MIDDLEWARE = 'tenancy';

export interface TenantMiddlewareOptions extends TenantResolutionOptions {
  /**
   * Answer 400 `TENANT_REQUIRED` when no source names a tenant. With `false` the route also serves requests without
   * a tenant (`ctx.tenant` is then `undefined`).
   * @default true
   */
  readonly required?: boolean;
}

/**
 * Resolves the request's tenant before the route runs: sets `ctx.tenant` and the request's current tenant
 * (`currentTenant()`, what the data package, storage and logs read). Options are checked once, here.
 *
 * ```ts
 * export const main = handler(fn, { scopes: ['tasks:read'], middleware: [tenantMiddleware({ from: ['claim', 'header'] })] });
 * ```
 */
export function tenantMiddleware(options: TenantMiddlewareOptions = {}): Middleware<HandlerContext> {
  const resolved = prepareTenantResolution(options);
  const required = options.required ?? true;
  return {
    name: TENANT_MIDDLEWARE,
    before(request) {
      const tenant = resolveTenant(request.ctx, resolved);
      if (tenant === undefined) {
        if (required) throw tenantRequired(resolved);
        return;
      }
      setRequestTenant(request.ctx, tenant);
    },
  };
}

function tenantRequired(options?: ResolvedTenantResolutionOptions): TenancyHttpError {
  const hint = options ? `name it with ${tenantSourcesHint(options)}` : 'add the tenancy middleware to the route, or run the code with runWithTenant(...)';
  return new TenancyHttpError('TENANT_REQUIRED', `This request needs a tenant and has none; ${hint}`);
}

/**
 * The tenant of the running request, or a 400 `TENANT_REQUIRED`: for code that cannot run without one (a typed
 * `TenantInfo` instead of `ctx.tenant`'s `| undefined`).
 */
export function requireTenant(ctx?: { readonly tenant?: TenantInfo }): TenantInfo {
  const tenant = ctx?.tenant ?? currentTenant();
  if (tenant === undefined) throw tenantRequired();
  return tenant;
}
