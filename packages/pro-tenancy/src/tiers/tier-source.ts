import type { Database } from '@framework/data';
import { sql } from '@framework/data';
import type { HandlerContext, TenantInfo } from '@framework/runtime';

/** Finds a tenant's tier name; `undefined` means "the default tier". `ctx` is there inside a request. */
export type TierSource = (tenant: TenantInfo, ctx?: Pick<HandlerContext, 'auth'>) => string | undefined | Promise<string | undefined>;

/** The tier from a token claim (`custom:tier`): set by the identity provider, so the caller cannot choose it. */
export function tierFromClaim(claim = 'custom:tier'): TierSource {
  return (_tenant, ctx) => {
    const value = ctx?.auth?.claims[claim];
    return typeof value === 'string' && value !== '' ? value : undefined;
  };
}

/**
 * The tier from the `tenants` table (`TENANTS_TABLE_MIGRATION`), kept per tenant for `cacheSeconds` so a request
 * does not pay a query each time (a tier change takes effect within that time).
 */
export function tierFromTenantsTable(db: Pick<Database, 'maybeOne'>, options: { readonly cacheSeconds?: number } = {}): TierSource {
  const ttl = (options.cacheSeconds ?? 60) * 1000;
  const cache = new Map<string, { tier: string | undefined; until: number }>();
  return async (tenant) => {
    const hit = cache.get(tenant.id);
    if (hit && hit.until > Date.now()) return hit.tier;
    const row = await db.maybeOne<{ tier: string }>(sql`SELECT tier FROM tenants WHERE id = ${tenant.id}`);
    // Bounded: a tenant id reaches this only after resolution checked it, but the map must not grow without end.
    if (cache.size >= 10_000) cache.clear();
    cache.set(tenant.id, { tier: row?.tier, until: Date.now() + ttl });
    return row?.tier;
  };
}
