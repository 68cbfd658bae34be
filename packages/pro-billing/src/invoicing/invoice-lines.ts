import type { BillingPeriod, BillingPlans, InvoiceLine, PlanDefinition, SubscriptionStatus } from '../model.js';
import { formatUnitAmount, graduatedAmount, meterTiers, proratedAmount } from '../plans/index.js';
import type { PlanSegmentStart } from '../subscriptions/index.js';

/** A stretch of a period on one plan, seats and status. */
export interface PlanSpan {
  readonly planId: string;
  readonly status: SubscriptionStatus;
  readonly seats: number;
  readonly from: Date;
  readonly to: Date;
}

/** An invoice line before it is stored: the amount still a bigint. */
export type DraftLine = Omit<InvoiceLine, 'amount'> & { readonly amount: bigint };

/** Statuses whose time is charged (a trial is free; an ended or paused subscription is not charged). */
const CHARGED: readonly SubscriptionStatus[] = ['active', 'past_due', 'unpaid'];

const seconds = (ms: number): bigint => BigInt(Math.floor(ms / 1000));

/** The spans of `period` from the versions that shape it (`readPlanHistory`): time before the first is not covered. */
export function periodSpans(history: readonly PlanSegmentStart[], period: BillingPeriod): PlanSpan[] {
  const spans: PlanSpan[] = [];
  history.forEach((h, i) => {
    const from = new Date(Math.max(h.effectiveAt.getTime(), period.start.getTime()));
    const next = history[i + 1];
    const to = new Date(Math.min(next ? next.effectiveAt.getTime() : period.end.getTime(), period.end.getTime()));
    if (seconds(to.getTime() - period.start.getTime()) > seconds(from.getTime() - period.start.getTime())) {
      spans.push({ planId: h.planId, status: h.status, seats: h.seats, from, to });
    }
  });
  return spans;
}

function planName(id: string, plan: PlanDefinition): string {
  return plan.name ?? id;
}

/**
 * The base and seat lines of a period: each span charges its plan's flat and per-seat prices for its share of the
 * period's seconds (`proratedAmount`: whole seconds, rounded half up on a running total, so a price held over
 * consecutive spans sums to exactly its share). One span over the whole period gives `base`/`seats` lines; a split
 * period gives `proration` lines (flat prices) and `seats` lines, each with a note of the seconds it covers.
 */
export function subscriptionLines(plans: BillingPlans, spans: readonly PlanSpan[], period: BillingPeriod): DraftLine[] {
  const total = seconds(period.end.getTime() - period.start.getTime());
  const lines: DraftLine[] = [];
  for (const span of spans) {
    const plan = plans.plans[span.planId];
    if (!plan || !CHARGED.includes(span.status)) continue;
    const from = seconds(span.from.getTime() - period.start.getTime());
    const to = seconds(span.to.getTime() - period.start.getTime());
    const whole = from === 0n && to === total;
    const note = whole ? null : `${to - from} of ${total} seconds (${span.from.toISOString()} to ${span.to.toISOString()})`;
    const common = { planId: span.planId, meter: null, periodStart: span.from, periodEnd: span.to, note };
    for (const price of plan.prices ?? []) {
      if (price.kind === 'flat') {
        lines.push({ ...common, kind: whole ? 'base' : 'proration', description: `${planName(span.planId, plan)} plan`, quantity: 1, unitAmount: String(price.amount), amount: proratedAmount(BigInt(price.amount), from, to, total) });
      } else if (price.kind === 'per_seat') {
        const billable = Math.max(0, span.seats - (price.includedSeats ?? 0));
        if (billable === 0) continue;
        const included = price.includedSeats ? ` (${price.includedSeats} included)` : '';
        lines.push({ ...common, kind: 'seats', description: `${planName(span.planId, plan)} plan: ${span.seats} seats${included}`, quantity: billable, unitAmount: String(price.unitAmount), amount: proratedAmount(BigInt(billable) * BigInt(price.unitAmount), from, to, total) });
      }
    }
  }
  return lines;
}

/** What a close counted of one meter: `late` of `quantity` happened before the period (arrived after its close). */
export interface CountedUsage {
  readonly meter: string;
  readonly quantity: bigint;
  readonly late: bigint;
}

/** The usage lines: each meter's count priced on the graduated tiers of the plan in force at the period's end. */
export function usageLines(plan: PlanDefinition, planId: string, counted: readonly CountedUsage[], period: BillingPeriod): DraftLine[] {
  return counted
    .filter((c) => c.quantity > 0n)
    .map((c) => {
      const tiers = meterTiers(plan, c.meter);
      const amount = tiers ? graduatedAmount(tiers, c.quantity) : 0n;
      const unit = tiers?.length === 1 ? formatUnitAmount(tiers[0]!.unitAmount) : null;
      const notes = [
        tiers ? (tiers.length > 1 ? `graduated tiers: ${tiers.map((t) => `${t.upTo === 'inf' ? 'above' : `to ${t.upTo}`} at ${formatUnitAmount(t.unitAmount)}`).join(', ')}` : null) : `not charged on the ${planId} plan`,
        c.late > 0n ? `includes ${c.late} units that happened before this period and arrived after its close` : null,
      ].filter((n): n is string => n !== null);
      return { kind: 'usage' as const, description: `${c.meter} usage`, quantity: Number(c.quantity), unitAmount: unit, amount, planId, meter: c.meter, periodStart: period.start, periodEnd: period.end, note: notes.length ? notes.join('; ') : null };
    });
}
