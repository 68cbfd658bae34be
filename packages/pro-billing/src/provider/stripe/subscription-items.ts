import type Stripe from 'stripe';
import { BillingError } from '../../errors.js';
import { isMeteredItem, licensedItem } from './stripe-objects.js';

/** The Stripe prices of one plan: its licensed price (quantity: the seats) and its metered price per meter. */
export interface PlanStripePrices {
  readonly licensed: string;
  readonly metered: Readonly<Record<string, string>>;
}

/**
 * The items of a new subscription or checkout session on a plan: the licensed price at the seats, then one item per
 * metered price (no quantity: Stripe refuses one on a metered price; usage comes from the meter events).
 */
export function planItems(prices: PlanStripePrices, seats: number): { price: string; quantity?: number }[] {
  return [{ price: prices.licensed, quantity: seats }, ...Object.values(prices.metered).map((price) => ({ price }))];
}

/**
 * The `items` of a subscription update moving it to another plan: the licensed item moved to the new plan's price
 * (at `seats`, else its quantity), each metered item of a meter the new plan also charges moved to the new metered
 * price (kept when already on it), those of meters it does not charge deleted, and the new plan's other meters added.
 * A metered item is told by its price (`meterOfPrice`: the adapter's metered prices, or `metadata.fw_meter` that
 * `syncStripePlans` writes); one the adapter cannot name is left alone (added outside the app).
 */
export function planChangeItems(
  current: Stripe.Subscription,
  target: PlanStripePrices,
  seats: number | undefined,
  lookup: { planOfPrice: (priceId: string) => string | undefined; meterOfPrice: (price: Stripe.Price) => string | undefined },
): Stripe.SubscriptionUpdateParams.Item[] {
  const licensed = licensedItem(current, lookup.planOfPrice);
  if (!licensed) throw new BillingError('FW_ERR_BILLING_PROVIDER_FAILED', `Stripe subscription ${current.id} has no licensed item to change`);
  const items: Stripe.SubscriptionUpdateParams.Item[] = [{ id: licensed.id, price: target.licensed, quantity: seats ?? licensed.quantity ?? 1 }];
  const wanted = new Map(Object.entries(target.metered));
  for (const item of current.items.data) {
    if (!isMeteredItem(item)) continue;
    const meter = lookup.meterOfPrice(item.price);
    if (meter === undefined) continue;
    const price = wanted.get(meter);
    if (price === undefined) {
      items.push({ id: item.id, deleted: true });
      continue;
    }
    // Taken: a second item of the same meter (never created by the adapter) is deleted by the next round.
    wanted.delete(meter);
    if (item.price.id !== price) items.push({ id: item.id, price });
  }
  for (const price of wanted.values()) items.push({ price });
  return items;
}
