import type { BillingPlans, PlanDefinition } from '../../model.js';
import { chargedMeters } from '../../local/plan-prices.js';
import { toStripeTiers, type StripeTierSpec } from './stripe-tiers.js';

export type { StripeTierSpec } from './stripe-tiers.js';

/** A Stripe price the config asks for: matched by `lookupKey`, equal when every other field is. */
export interface StripePriceSpec {
  readonly lookupKey: string;
  readonly plan: string;
  /** The meter of a metered price; undefined for the plan's licensed price. */
  readonly meter?: string;
  readonly product: string;
  readonly currency: string;
  readonly usageType: 'licensed' | 'metered';
  readonly tiers: readonly StripeTierSpec[];
}

/** The product a plan's prices belong to (a custom id, so a re-run finds it without a search). */
export function stripeProductId(plan: string): string {
  return `fw_plan_${plan}`;
}

/** The lookup key of a plan's licensed price (`fw_pro`) or of its price for a meter (`fw_pro__api_calls`). */
export function stripeLookupKey(plan: string, meter?: string): string {
  return meter === undefined ? `fw_${plan}` : `fw_${plan}__${meter}`;
}

/**
 * The licensed price of a plan: one graduated tiered price whose quantity is the seats, so one subscription item
 * bills exactly what the plan declares: the first tier carries the flat prices (`flat_amount`, charged once) and the
 * included seats at 0, the next each further seat. A plan without prices is one free tier.
 */
function licensedTiers(plan: PlanDefinition): StripeTierSpec[] {
  const flat = (plan.prices ?? []).reduce((sum, p) => sum + (p.kind === 'flat' ? p.amount : 0), 0);
  const seat = (plan.prices ?? []).find((p) => p.kind === 'per_seat');
  const unit = seat?.kind === 'per_seat' ? seat.unitAmount : 0;
  const included = seat?.kind === 'per_seat' ? (seat.includedSeats ?? 0) : 0;
  if (included > 0) return [{ up_to: included, flat_amount: flat, unit_amount_decimal: '0' }, { up_to: null, flat_amount: 0, unit_amount_decimal: String(unit) }];
  return [{ up_to: null, flat_amount: flat, unit_amount_decimal: String(unit) }];
}

/**
 * Every Stripe price the plans need: per plan its licensed price, and per meter it charges (a metered price, or an
 * allowance with overage) a metered price on the plan's tiers (`{ included, overage }`: 0 up to included, the
 * overage above). Pure: what `syncStripePlans` compares Stripe's prices with.
 */
export function stripePlanPrices(plans: BillingPlans): StripePriceSpec[] {
  return Object.entries(plans.plans).flatMap(([id, plan]) => [
    { lookupKey: stripeLookupKey(id), plan: id, product: stripeProductId(id), currency: plan.currency, usageType: 'licensed' as const, tiers: licensedTiers(plan) },
    ...chargedMeters(plan).map(([meter, tiers]) => ({
      lookupKey: stripeLookupKey(id, meter),
      plan: id,
      meter,
      product: stripeProductId(id),
      currency: plan.currency,
      usageType: 'metered' as const,
      tiers: toStripeTiers(tiers),
    })),
  ]);
}
