import { sql, type Database } from '@framework/data';
import type { HandlerContext, Middleware } from '@framework/runtime';
import { TenancyHttpError } from '../errors.js';

/**
 * Refuses requests of a disabled tenant (403 `TENANT_DISABLED`) or of an id the `tenants` table does not have (404
 * `TENANT_NOT_FOUND`). Place it after `tenantMiddleware`. A tenant's status is kept `cacheSeconds` per tenant (a
 * disabling takes effect within that time).
 */
export function activeTenantMiddleware(db: Pick<Database, 'maybeOne'>, options: { readonly cacheSeconds?: number } = {}): Middleware<HandlerContext> {
  const ttl = (options.cacheSeconds ?? 30) * 1000;
  const cache = new Map<string, { status: string | undefined; until: number }>();
  return {
    name: 'active-tenant',
    async before({ ctx }) {
      const tenant = ctx.tenant;
      if (!tenant) return;
      let hit = cache.get(tenant.id);
      if (!hit || hit.until <= Date.now()) {
        const row = await db.maybeOne<{ status: string }>(sql`SELECT status FROM tenants WHERE id = ${tenant.id}`);
        if (cache.size >= 10_000) cache.clear();
        cache.set(tenant.id, (hit = { status: row?.status, until: Date.now() + ttl }));
      }
      if (hit.status === undefined) throw new TenancyHttpError('TENANT_NOT_FOUND', `Tenant "${tenant.id}" does not exist; onboard it first`);
      if (hit.status !== 'active') throw new TenancyHttpError('TENANT_DISABLED', `Tenant "${tenant.id}" is disabled; its requests are refused until it is enabled again`);
    },
  };
}
