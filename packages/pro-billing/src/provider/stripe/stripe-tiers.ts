import type { PriceTier } from '../../model.js';

/** One graduated tier as Stripe takes it (`up_to` null: the last tier), amounts as decimal strings of minor units. */
export interface StripeTierSpec {
  readonly up_to: number | null;
  readonly flat_amount: number;
  readonly unit_amount_decimal: string;
}

/** The package's tiers (`upTo: 'inf'` last) in Stripe's shape. */
export function toStripeTiers(tiers: readonly PriceTier[]): StripeTierSpec[] {
  return tiers.map((tier) => ({ up_to: tier.upTo === 'inf' ? null : tier.upTo, flat_amount: tier.flatAmount ?? 0, unit_amount_decimal: String(tier.unitAmount) }));
}

/**
 * A Stripe price's tiers (or, untiered, its unit amount as one tier) in the package's shape, so usage on a Stripe
 * price is priced by the package's own exact graduated pricing (`graduatedAmount`).
 */
export function fromStripeTiers(tiers: readonly { up_to?: number | null; flat_amount?: number | null; unit_amount?: number | null; unit_amount_decimal?: string | null }[] | null | undefined, unitAmountDecimal?: string | null): PriceTier[] {
  if (!tiers || tiers.length === 0) return [{ upTo: 'inf', unitAmount: decimalOrNumber(unitAmountDecimal ?? '0') }];
  return tiers.map((tier) => ({
    upTo: tier.up_to === null || tier.up_to === undefined ? 'inf' : tier.up_to,
    unitAmount: decimalOrNumber(tier.unit_amount_decimal ?? String(tier.unit_amount ?? 0)),
    ...(tier.flat_amount ? { flatAmount: tier.flat_amount } : {}),
  }));
}

/** A whole amount as a number, a fraction of a minor unit as the decimal string the package's prices take. */
function decimalOrNumber(value: string): number | string {
  return /^\d+$/.test(value) ? Number(value) : value;
}
