import { sql, type Queryable } from '@framework/data';
import { BILLING_TABLES } from '../schema/index.js';
import type { BillingProvider } from './billing-provider.js';

interface PendingAggregate {
  readonly tenant_id: string;
  readonly meter: string;
  readonly period_start: Date;
  readonly period_end: Date;
  readonly quantity: string;
  readonly customer_id: string | null;
}

export interface PushPendingUsageResult {
  /** Aggregates the provider took (marked `pushed_at`). */
  readonly pushed: number;
  /** Aggregates left for later: the tenant has no provider customer yet. */
  readonly skipped: number;
}

/**
 * Sends the closed periods' usage (`fw_billing_usage_aggregates` not pushed yet) to the provider as meter events and
 * marks them pushed. Each aggregate is one push of sequence 0 for its tenant, meter and period, so the provider's
 * key (`usageIdempotencyKey`) makes a re-run after a crash between the push and the mark count once. Reads every
 * tenant's rows: with row-level security, call it inside `asAllTenants(...)` (a period-close job).
 */
export async function pushPendingUsage(db: Queryable, provider: BillingProvider): Promise<PushPendingUsageResult> {
  const pending = await db.many<PendingAggregate>(sql`
    SELECT a.tenant_id, a.meter, a.period_start, a.period_end, a.quantity::text AS quantity, s.provider_customer_id AS customer_id
    FROM ${sql.identifier(BILLING_TABLES.usageAggregates)} a
    LEFT JOIN ${sql.identifier(BILLING_TABLES.subscriptions)} s ON s.tenant_id = a.tenant_id
    WHERE a.pushed_at IS NULL
    ORDER BY a.period_start, a.tenant_id, a.meter`);
  let pushed = 0;
  let skipped = 0;
  for (const row of pending) {
    if (!row.customer_id) {
      skipped += 1;
      continue;
    }
    // The usage is filed just before the period's end: in the provider's period that the aggregate closes.
    const timestamp = new Date(row.period_end.getTime() - 1000);
    await provider.pushUsage([{ tenantId: row.tenant_id, customerId: row.customer_id, meter: row.meter, periodStart: row.period_start, sequence: 0, quantity: Number(row.quantity), timestamp }]);
    await db.query(sql`UPDATE ${sql.identifier(BILLING_TABLES.usageAggregates)} SET pushed_at = now() WHERE tenant_id = ${row.tenant_id} AND meter = ${row.meter} AND period_start = ${row.period_start}`);
    pushed += 1;
  }
  return { pushed, skipped };
}
