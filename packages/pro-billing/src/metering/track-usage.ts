import { sql, type Queryable } from '@framework/data';
import { BillingError } from '../errors.js';
import type { BillingPeriod } from '../model.js';

/** What `track` records: `quantity` units of `meter` for the tenant, once per `idempotencyKey`. */
export interface TrackInput {
  /** The tenant id. @default - the current tenant (`ctx.tenant`, `currentTenant()`) */
  readonly tenant?: string;
  readonly meter: string;
  /** Whole units, >= 0. */
  readonly quantity: number;
  /**
   * The caller's key for this event (a request id, a message id, `<job>:<item>`): the same key for the same tenant
   * and meter counts once, however often the code that tracks it runs.
   */
  readonly idempotencyKey: string;
  /** When the usage happened (decides its period). @default - now */
  readonly occurredAt?: Date;
}

/** What `track` did: `recorded: false` when the key was counted before (a retry). */
export interface Tracked {
  readonly recorded: boolean;
}

const MAX_KEY_LENGTH = 255;

function refuse(message: string): never {
  throw new BillingError('FW_ERR_BILLING_INVALID_USAGE', message);
}

/** Checks an event before it is written; `meters` are the ones some plan prices or limits. */
export function checkUsage(input: TrackInput & { readonly tenant: string | undefined }, meters: ReadonlySet<string>): asserts input is TrackInput & { readonly tenant: string } {
  if (typeof input.tenant !== 'string' || input.tenant.length === 0) refuse('track() ran without a tenant: call it inside the request (after the tenancy middleware), in runWithTenant, or pass { tenant }.');
  if (!meters.has(input.meter)) refuse(`Meter ${JSON.stringify(input.meter)} is not priced or limited by any plan (meters: ${[...meters].join(', ') || 'none'}): declare it on a plan (a metered price, or a feature { included, overage? }).`);
  if (!Number.isSafeInteger(input.quantity) || input.quantity < 0) refuse(`Quantity must be a whole number >= 0, got ${String(input.quantity)}.`);
  if (typeof input.idempotencyKey !== 'string' || input.idempotencyKey.length === 0 || input.idempotencyKey.length > MAX_KEY_LENGTH) {
    refuse(`track() needs an idempotencyKey of 1 to ${MAX_KEY_LENGTH} characters (a request id, a message id): it is what makes a retried event count once.`);
  }
  if (input.occurredAt !== undefined && (!(input.occurredAt instanceof Date) || Number.isNaN(input.occurredAt.getTime()))) refuse('occurredAt must be a valid Date.');
}

/**
 * Writes the event in the caller's transaction with `INSERT ... ON CONFLICT (tenant_id, meter, idempotency_key) DO
 * NOTHING`: the key is stored with the event by the same statement, so there is no moment where the key is claimed
 * and the event not written (a crash between the two would lose it), and a rolled-back business write takes its
 * usage with it. A retry with the same key writes nothing and says so.
 */
export async function insertUsage(tx: Queryable, event: TrackInput & { readonly tenant: string }, now: Date): Promise<Tracked> {
  const result = await tx.query(sql`
    INSERT INTO fw_billing_usage_events (tenant_id, meter, quantity, idempotency_key, occurred_at)
    VALUES (${event.tenant}, ${event.meter}, ${event.quantity}, ${event.idempotencyKey}, ${event.occurredAt ?? now})
    ON CONFLICT (tenant_id, meter, idempotency_key) DO NOTHING`);
  return { recorded: result.rowCount > 0 };
}

/** Units of `meter` the tenant used that happened in `period` (counted or not yet counted by a close). */
export async function usageIn(db: Queryable, tenant: string, meter: string, period: BillingPeriod): Promise<number> {
  const row = await db.one<{ used: string }>(sql`
    SELECT coalesce(sum(quantity), 0)::text AS used FROM fw_billing_usage_events
    WHERE tenant_id = ${tenant} AND meter = ${meter} AND occurred_at >= ${period.start} AND occurred_at < ${period.end}`);
  return Number(row.used);
}
