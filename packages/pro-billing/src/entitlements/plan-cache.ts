import type { Queryable } from '@framework/data';
import { ENTITLED_STATUSES, type BillingPeriod, type BillingPlans } from '../model.js';
import { readSubscription } from '../subscriptions/index.js';

/** The plan that applies to a tenant now, and the period its metered allowances count in. */
export interface TenantPlan {
  readonly planId: string;
  readonly period: BillingPeriod;
}

interface Entry {
  readonly value: Promise<TenantPlan>;
  readonly expiresAt: number;
}

/** The calendar month (UTC) holding `now`: the period of a tenant without a subscription. */
export function calendarMonth(now: Date): BillingPeriod {
  const start = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
  const end = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));
  return { start, end };
}

/**
 * Each tenant's plan, read from the snapshot table and kept for `ttlMs`: a request costs no database round trip
 * while the entry is fresh, and a plan change is seen everywhere within `ttlMs` (at once in the process that made it,
 * which calls `invalidate`). A tenant without a subscription, or whose subscription ended (canceled, unpaid, ...),
 * gets the default plan. At most `maxEntries` tenants are kept (the oldest entry goes first).
 */
export class PlanCache {
  private readonly entries = new Map<string, Entry>();

  constructor(
    private readonly plans: BillingPlans,
    private readonly db: () => Queryable,
    private readonly ttlMs: number,
    private readonly now: () => Date,
    private readonly maxEntries = 10_000,
  ) {}

  public planOf(tenantId: string): Promise<TenantPlan> {
    const at = this.now();
    const hit = this.entries.get(tenantId);
    if (hit && hit.expiresAt > at.getTime()) return hit.value;
    const value = this.read(tenantId, at);
    // A failed read is not kept: the next request asks again.
    value.catch(() => this.entries.delete(tenantId));
    this.entries.delete(tenantId);
    if (this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value as string);
    this.entries.set(tenantId, { value, expiresAt: at.getTime() + this.ttlMs });
    return value;
  }

  /** Forgets a tenant's plan (after a change this process made), or every tenant's. */
  public invalidate(tenantId?: string): void {
    if (tenantId === undefined) this.entries.clear();
    else this.entries.delete(tenantId);
  }

  private async read(tenantId: string, at: Date): Promise<TenantPlan> {
    const snapshot = await readSubscription(this.db(), tenantId);
    const entitled = snapshot !== undefined && ENTITLED_STATUSES.includes(snapshot.status) && Object.hasOwn(this.plans.plans, snapshot.planId);
    const inPeriod = snapshot !== undefined && snapshot.periodStart.getTime() <= at.getTime() && at.getTime() < snapshot.periodEnd.getTime();
    return {
      planId: entitled ? snapshot.planId : this.plans.defaultPlan,
      period: inPeriod ? { start: snapshot.periodStart, end: snapshot.periodEnd } : calendarMonth(at),
    };
  }
}
