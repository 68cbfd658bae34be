import { sql, type Queryable } from '@framework/data';
import type { SubscriptionSnapshot, SubscriptionStatus } from '../model.js';

/** A row of `fw_billing_subscriptions` as `pg` returns it (bigint as text). */
interface SubscriptionRow {
  readonly tenant_id: string;
  readonly plan_id: string;
  readonly status: SubscriptionStatus;
  readonly seats: number;
  readonly period_start: Date;
  readonly period_end: Date;
  readonly trial_end: Date | null;
  readonly provider_customer_id: string | null;
  readonly provider_subscription_id: string | null;
  readonly version: string;
}

function toSnapshot(row: SubscriptionRow): SubscriptionSnapshot {
  return {
    tenantId: row.tenant_id,
    planId: row.plan_id,
    status: row.status,
    seats: row.seats,
    periodStart: row.period_start,
    periodEnd: row.period_end,
    trialEnd: row.trial_end,
    providerCustomerId: row.provider_customer_id,
    providerSubscriptionId: row.provider_subscription_id,
    version: Number(row.version),
  };
}

/** The tenant's subscription snapshot, or `undefined` when it has none (the default plan applies). */
export async function readSubscription(db: Queryable, tenantId: string): Promise<SubscriptionSnapshot | undefined> {
  const row = await db.maybeOne<SubscriptionRow>(sql`SELECT * FROM fw_billing_subscriptions WHERE tenant_id = ${tenantId}`);
  return row ? toSnapshot(row) : undefined;
}

/** The subscription of the provider's customer (webhooks name the customer, not the tenant). */
export async function readSubscriptionByCustomer(db: Queryable, providerCustomerId: string): Promise<SubscriptionSnapshot | undefined> {
  const row = await db.maybeOne<SubscriptionRow>(sql`SELECT * FROM fw_billing_subscriptions WHERE provider_customer_id = ${providerCustomerId} ORDER BY version DESC LIMIT 1`);
  return row ? toSnapshot(row) : undefined;
}

/** One version of a tenant's plan and seats, from the time it took effect. */
export interface PlanSegmentStart {
  readonly version: number;
  readonly planId: string;
  readonly status: SubscriptionStatus;
  readonly seats: number;
  readonly effectiveAt: Date;
}

/**
 * The versions that shape `[start, end)`: the last one in force at `start` and every later one taking effect before
 * `end`, by time (ties by version). A later version with an earlier `effectiveAt` (a change delivered out of order)
 * still takes its place in time.
 */
export async function readPlanHistory(db: Queryable, tenantId: string, start: Date, end: Date): Promise<PlanSegmentStart[]> {
  const rows = await db.many<{ version: string; plan_id: string; status: SubscriptionStatus; seats: number; effective_at: Date }>(sql`
    (SELECT version, plan_id, status, seats, effective_at FROM fw_billing_subscription_changes
      WHERE tenant_id = ${tenantId} AND effective_at <= ${start} ORDER BY effective_at DESC, version DESC LIMIT 1)
    UNION ALL
    (SELECT version, plan_id, status, seats, effective_at FROM fw_billing_subscription_changes
      WHERE tenant_id = ${tenantId} AND effective_at > ${start} AND effective_at < ${end})
    ORDER BY effective_at, version`);
  return rows.map((r) => ({ version: Number(r.version), planId: r.plan_id, status: r.status, seats: r.seats, effectiveAt: r.effective_at }));
}
