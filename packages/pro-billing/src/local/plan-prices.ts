import type { BillingPlans, PlanDefinition } from '../model.js';
import { graduatedAmount, isMetered, meterTiers } from '../plans/index.js';
import type { LocalStripePrice } from './local-stripe-options.js';

/** The price id the fake gives a plan of the config (`price_pro`): what `stripeProvider`'s `prices` maps it to. */
export function localPriceId(planId: string): string {
  return `price_${planId}`;
}

/** `stripeProvider`'s `prices` for the fake started with `plans`: each plan to its price id. */
export function localStripePriceIds(plans: BillingPlans): Record<string, string> {
  return Object.fromEntries(Object.keys(plans.plans).map((id) => [id, localPriceId(id)]));
}

/**
 * The fake's prices from the app's plans: one price per plan (the adapter subscribes a tenant to one price, quantity
 * the seats), charging exactly what the plan declares: flat amounts, seats past the included ones, and each meter on
 * the plan's tiers. The fake thereby bills what the config says, and a closed period reconciles with its invoice.
 */
export function localStripePrices(plans: BillingPlans): Record<string, LocalStripePrice> {
  return Object.fromEntries(
    Object.entries(plans.plans).map(([id, plan]) => {
      const seat = (plan.prices ?? []).find((p) => p.kind === 'per_seat');
      const flat = (plan.prices ?? []).reduce((sum, p) => sum + (p.kind === 'flat' ? p.amount : 0), 0);
      const price: LocalStripePrice = { unitAmountCents: seat?.kind === 'per_seat' ? seat.unitAmount : flat, currency: plan.currency, nickname: plan.name ?? id, plan };
      return [localPriceId(id), price];
    }),
  );
}

/** A plan's amount for one whole period at `seats`: its flat prices plus the seats past the included ones. */
export function planPeriodAmount(plan: PlanDefinition, seats: number): number {
  let amount = 0;
  for (const price of plan.prices ?? []) {
    if (price.kind === 'flat') amount += price.amount;
    else if (price.kind === 'per_seat') amount += Math.max(0, seats - (price.includedSeats ?? 0)) * price.unitAmount;
  }
  return amount;
}

/** The meters a plan charges (a metered price, or an allowance with overage), with their tiers. */
export function chargedMeters(plan: PlanDefinition): [string, NonNullable<ReturnType<typeof meterTiers>>][] {
  const names = new Set<string>();
  for (const price of plan.prices ?? []) if (price.kind === 'metered') names.add(price.meter);
  for (const [name, limit] of Object.entries(plan.features ?? {})) if (isMetered(limit)) names.add(name);
  return [...names].sort().flatMap((name) => {
    const tiers = meterTiers(plan, name);
    return tiers ? [[name, tiers] as [string, NonNullable<typeof tiers>]] : [];
  });
}

/** Units of a meter on a plan's tiers, in whole cents. */
export function meterAmount(tiers: NonNullable<ReturnType<typeof meterTiers>>, units: number): number {
  return Number(graduatedAmount(tiers, BigInt(units)));
}
