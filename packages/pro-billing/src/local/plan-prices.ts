import type { BillingPlans, PlanDefinition } from '../model.js';
import { graduatedAmount, isMetered, meterTiers } from '../plans/index.js';
import type { LocalStripePrice } from './local-stripe-options.js';

/** The price id the fake gives a plan of the config (`price_pro`): what `stripeProvider`'s `prices` maps it to. */
export function localPriceId(planId: string): string {
  return `price_${planId}`;
}

/** The id of the fake's metered price for a meter a plan charges (`price_pro__api_calls`). */
export function localMeteredPriceId(planId: string, meter: string): string {
  return `price_${planId}__${meter}`;
}

/**
 * The id of the billing meter the fake lists for an event name its prices charge (`mtr_local_api_calls`): what
 * their `recurring.meter` names, and what `syncStripePlans` finds by event name.
 */
export function localMeterId(eventName: string): string {
  return `mtr_local_${eventName}`;
}

/** `stripeProvider`'s `prices` for the fake started with `plans`: each plan to its licensed price id. */
export function localStripePriceIds(plans: BillingPlans): Record<string, string> {
  return Object.fromEntries(Object.keys(plans.plans).map((id) => [id, localPriceId(id)]));
}

/**
 * `stripeProvider`'s `meteredPrices` for the fake started with `plans`: each plan to its metered price id per meter
 * it charges (plans that charge no meter are left out).
 */
export function localStripeMeteredPriceIds(plans: BillingPlans): Record<string, Record<string, string>> {
  return Object.fromEntries(
    Object.entries(plans.plans).flatMap(([id, plan]) => {
      const meters = chargedMeters(plan);
      return meters.length === 0 ? [] : [[id, Object.fromEntries(meters.map(([meter]) => [meter, localMeteredPriceId(id, meter)]))]];
    }),
  );
}

/**
 * The fake's prices from the app's plans, as `syncStripePlans` lays them out on Stripe: per plan one licensed price
 * (quantity the seats: its flat amounts and the seats past the included ones) and one metered price per meter it
 * charges (on the plan's tiers, backed by the billing meter of that name). A subscription carries one item of each,
 * as the adapter creates it, so the fake bills what the config says and a closed period reconciles with its invoice.
 */
export function localStripePrices(plans: BillingPlans): Record<string, LocalStripePrice> {
  return Object.fromEntries(
    Object.entries(plans.plans).flatMap(([id, plan]) => {
      const seat = (plan.prices ?? []).find((p) => p.kind === 'per_seat');
      const flat = (plan.prices ?? []).reduce((sum, p) => sum + (p.kind === 'flat' ? p.amount : 0), 0);
      const licensed: LocalStripePrice = { unitAmountCents: seat?.kind === 'per_seat' ? seat.unitAmount : flat, currency: plan.currency, nickname: plan.name ?? id, plan };
      const metered = chargedMeters(plan).map(([meter, tiers]): [string, LocalStripePrice] => [localMeteredPriceId(id, meter), { unitAmountCents: 0, currency: plan.currency, nickname: `${plan.name ?? id} ${meter}`, meter, tiers }]);
      return [[localPriceId(id), licensed] as [string, LocalStripePrice], ...metered];
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
