import type { PgPoolLike } from './rate-store.js';

/** The outcome of consuming a hard quota. */
export interface UsageResult {
  /** Whether the amount fit under the limit (and was counted). */
  readonly ok: boolean;
  /** What the tenant uses now (after the amount when `ok`). */
  readonly used: number;
}

/**
 * Where hard-quota usage lives (seats, storage bytes, custom counters): what a tenant holds now, not a rate. A
 * consume is one atomic check-and-add, so two requests racing for the last seat cannot both get it.
 */
export interface UsageStore {
  /** Adds `amount` when `used + amount <= limit` (no limit: always). */
  consume(tenantId: string, quota: string, amount: number, limit: number | undefined): Promise<UsageResult>;
  /** Takes `amount` back (never below 0). */
  release(tenantId: string, quota: string, amount: number): Promise<number>;
  /** What the tenant uses of each quota it has used. */
  usage(tenantId: string): Promise<Record<string, number>>;
  /** Forgets a tenant's usage (offboarding). */
  forget(tenantId: string): Promise<void>;
}

/** Usage in this process's memory (tests, scripts). */
export function memoryUsageStore(): UsageStore {
  const byTenant = new Map<string, Map<string, number>>();
  const of = (tenantId: string) => {
    let quotas = byTenant.get(tenantId);
    if (!quotas) byTenant.set(tenantId, (quotas = new Map()));
    return quotas;
  };
  return {
    async consume(tenantId, quota, amount, limit) {
      const quotas = of(tenantId);
      const used = quotas.get(quota) ?? 0;
      if (limit !== undefined && used + amount > limit) return { ok: false, used };
      quotas.set(quota, used + amount);
      return { ok: true, used: used + amount };
    },
    async release(tenantId, quota, amount) {
      const quotas = of(tenantId);
      const used = Math.max(0, (quotas.get(quota) ?? 0) - amount);
      quotas.set(quota, used);
      return used;
    },
    async usage(tenantId) {
      return Object.fromEntries(byTenant.get(tenantId) ?? []);
    },
    async forget(tenantId) {
      byTenant.delete(tenantId);
    },
  };
}

interface QueryResultLike<R> {
  rows: R[];
}
type Query = <R>(text: string, values?: unknown[]) => Promise<QueryResultLike<R>>;

const IDENTIFIER = /^[a-z_][a-z0-9_]{0,62}$/;

/**
 * Usage in PostgreSQL, table `tableName` (created when missing): `(tenant, quota, used)`. Its column is `tenant`,
 * not `tenant_id`: the table is the framework's bookkeeping, read through the migrations' user, not a tenant table
 * under row-level security. Pass a `pg` Pool connected as that user.
 */
export function postgresUsageStore(pool: PgPoolLike, options: { readonly tableName?: string } = {}): UsageStore {
  const table = options.tableName ?? 'fw_tenant_usage';
  if (!IDENTIFIER.test(table)) throw new Error(`postgresUsageStore: tableName ${JSON.stringify(table)} is not a plain lower-case identifier`);
  const query = ((text: string, values?: unknown[]) => (pool.query as unknown as Query)(text, values)) as Query;
  let ready: Promise<unknown> | undefined;
  const prepared = () => (ready ??= query(`CREATE TABLE IF NOT EXISTS ${table} (tenant text NOT NULL, quota text NOT NULL, used bigint NOT NULL DEFAULT 0 CHECK (used >= 0), PRIMARY KEY (tenant, quota))`).catch((error: unknown) => {
    ready = undefined;
    throw error;
  }));
  return {
    async consume(tenantId, quota, amount, limit) {
      await prepared();
      // One statement: insert-or-add only while under the limit; no row back means it did not fit.
      const { rows } = await query<{ used: string }>(
        `INSERT INTO ${table} AS u (tenant, quota, used) SELECT $1, $2, $3::bigint WHERE $4::bigint IS NULL OR $3::bigint <= $4::bigint
         ON CONFLICT (tenant, quota) DO UPDATE SET used = u.used + $3::bigint WHERE $4::bigint IS NULL OR u.used + $3::bigint <= $4::bigint
         RETURNING used`,
        [tenantId, quota, amount, limit ?? null],
      );
      if (rows[0]) return { ok: true, used: Number(rows[0].used) };
      const current = await query<{ used: string }>(`SELECT used FROM ${table} WHERE tenant = $1 AND quota = $2`, [tenantId, quota]);
      return { ok: false, used: Number(current.rows[0]?.used ?? 0) };
    },
    async release(tenantId, quota, amount) {
      await prepared();
      const { rows } = await query<{ used: string }>(`UPDATE ${table} SET used = GREATEST(used - $3::bigint, 0) WHERE tenant = $1 AND quota = $2 RETURNING used`, [tenantId, quota, amount]);
      return Number(rows[0]?.used ?? 0);
    },
    async usage(tenantId) {
      await prepared();
      const { rows } = await query<{ quota: string; used: string }>(`SELECT quota, used FROM ${table} WHERE tenant = $1`, [tenantId]);
      const out: Record<string, number> = Object.create(null) as Record<string, number>;
      for (const row of rows) out[row.quota] = Number(row.used);
      return out;
    },
    async forget(tenantId) {
      await prepared();
      await query(`DELETE FROM ${table} WHERE tenant = $1`, [tenantId]);
    },
  };
}
