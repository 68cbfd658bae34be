import { sql, type Queryable } from '@framework/data';
import { BillingError } from '../errors.js';
import { ENTITLED_STATUSES, type BillingPeriod, type BillingPlans, type Invoice } from '../model.js';
import { DEFAULT_GRACE_SECONDS } from '../plans/index.js';
import { readPlanHistory } from '../subscriptions/index.js';
import { useCredits } from './credits.js';
import { periodSpans, subscriptionLines, usageLines, type CountedUsage, type DraftLine } from './invoice-lines.js';
import { readInvoice } from './invoice-store.js';

/** A database that can run a transaction (the `Database`, or a transaction: then a savepoint). */
export type TransactionRunner = Pick<Queryable, 'transaction'>;

/** The invoice number: the tenant and the period's first day, unique per tenant and period. */
function invoiceNumber(tenantId: string, period: BillingPeriod): string {
  return `${tenantId}-${period.start.toISOString().slice(0, 10).replace(/-/g, '')}`;
}

/**
 * Closes a tenant's period: one invoice with its lines, in one transaction.
 *
 * - Idempotent: the invoice row is inserted first, `ON CONFLICT (tenant_id, period_start) DO NOTHING`; a second close
 *   (or one running at the same time, which waits on the unique index) finds the first invoice and returns it.
 * - Refused before `period.end + graceSeconds`: usage happening in the period may still arrive until then.
 * - Usage: every event of the tenant not counted by a close and that happened before the period's end is marked with
 *   this invoice (one UPDATE). Events from before the period (late: they arrived after their period's close) count
 *   here, with a note; events of a transaction still open commit unmarked and the next close counts them. The count
 *   per meter is kept in `fw_billing_usage_aggregates` (what the provider's meter events are sent from).
 * - Lines: base / proration / seats from the plan history, usage on the plan in force at the period's end, then the
 *   tenant's open credits up to the subtotal (a `credit` line, negative). `total = subtotal + credits`.
 */
export async function closePeriod(db: TransactionRunner, plans: BillingPlans, tenantId: string, period: BillingPeriod, now: Date): Promise<Invoice> {
  if (!(period.start instanceof Date) || !(period.end instanceof Date) || !(period.end.getTime() > period.start.getTime())) {
    throw new BillingError('FW_ERR_BILLING_INVALID_PERIOD', 'closePeriod needs a period { start, end } of Dates with end after start.');
  }
  const grace = plans.graceSeconds ?? DEFAULT_GRACE_SECONDS;
  const closable = new Date(period.end.getTime() + grace * 1000);
  if (now.getTime() < closable.getTime()) {
    throw new BillingError('FW_ERR_BILLING_PERIOD_OPEN', `The period ending ${period.end.toISOString()} can be closed from ${closable.toISOString()} (its end plus the ${grace} s grace window in which late usage still counts in it).`);
  }
  return db.transaction(async (tx) => {
    const history = await readPlanHistory(tx, tenantId, period.start, period.end);
    const spans = periodSpans(history, period);
    const last = spans.at(-1);
    const endPlanId = last && ENTITLED_STATUSES.includes(last.status) && Object.hasOwn(plans.plans, last.planId) ? last.planId : plans.defaultPlan;
    const endPlan = plans.plans[endPlanId]!;
    const inserted = await tx.maybeOne<{ id: string }>(sql`
      INSERT INTO fw_billing_invoices (tenant_id, number, period_start, period_end, currency, plan_id, subtotal, credits, total)
      VALUES (${tenantId}, ${invoiceNumber(tenantId, period)}, ${period.start}, ${period.end}, ${endPlan.currency}, ${endPlanId}, 0, 0, 0)
      ON CONFLICT (tenant_id, period_start) DO NOTHING RETURNING id`);
    if (inserted) {
      const counted = await tx.many<{ meter: string; quantity: string; late: string }>(sql`
        WITH counted AS (
          UPDATE fw_billing_usage_events SET invoice_id = ${inserted.id}
          WHERE tenant_id = ${tenantId} AND invoice_id IS NULL AND occurred_at < ${period.end}
          RETURNING meter, quantity, occurred_at)
        SELECT meter, sum(quantity)::text AS quantity, coalesce(sum(quantity) FILTER (WHERE occurred_at < ${period.start}), 0)::text AS late
        FROM counted GROUP BY meter ORDER BY meter`);
      const usage: CountedUsage[] = counted.map((c) => ({ meter: c.meter, quantity: BigInt(c.quantity), late: BigInt(c.late) }));
      for (const c of usage) {
        await tx.query(sql`
          INSERT INTO fw_billing_usage_aggregates (tenant_id, meter, period_start, period_end, quantity, late_quantity, invoice_id)
          VALUES (${tenantId}, ${c.meter}, ${period.start}, ${period.end}, ${c.quantity.toString()}::bigint, ${c.late.toString()}::bigint, ${inserted.id})`);
      }
      const lines: DraftLine[] = [...subscriptionLines(plans, spans, period), ...usageLines(endPlan, endPlanId, usage, period)];
      const subtotal = lines.reduce((sum, line) => sum + line.amount, 0n);
      const credits = await useCredits(tx, tenantId, inserted.id, subtotal);
      for (const credit of credits) {
        lines.push({ kind: 'credit', description: `Credit: ${credit.reason}`, quantity: 1, unitAmount: null, amount: -credit.amount, planId: null, meter: null, periodStart: period.start, periodEnd: period.end, note: null });
      }
      const credited = credits.reduce((sum, c) => sum - c.amount, 0n);
      for (const [position, line] of lines.entries()) {
        await tx.query(sql`
          INSERT INTO fw_billing_invoice_lines (invoice_id, position, tenant_id, kind, description, quantity, unit_amount, amount, plan_id, meter, period_start, period_end, note)
          VALUES (${inserted.id}, ${position}, ${tenantId}, ${line.kind}, ${line.description}, ${line.quantity}, ${line.unitAmount}, ${line.amount.toString()}::bigint,
            ${line.planId}, ${line.meter}, ${line.periodStart}, ${line.periodEnd}, ${line.note})`);
      }
      await tx.query(sql`
        UPDATE fw_billing_invoices SET subtotal = ${subtotal.toString()}::bigint, credits = ${credited.toString()}::bigint, total = ${(subtotal + credited).toString()}::bigint
        WHERE id = ${inserted.id}`);
    }
    const invoice = await readInvoice(tx, tenantId, period.start);
    if (!invoice) throw new Error(`invoice of ${tenantId} for ${period.start.toISOString()} vanished inside its transaction`);
    return invoice;
  });
}
