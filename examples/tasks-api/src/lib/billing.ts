import { createBilling, localStripeConnection, localStripeMeteredPriceIds, localStripePriceIds, stripeProvider, type BillingProvider } from '@framework-pro/billing';
import { ServiceUnavailable } from '@framework/runtime';

/**
 * Entitlements (`requireFeature`), metering (`track`) and period close, on the app's database, with the plans of
 * fw.config.ts's `billing` (they reach functions as data, so no function loads fw.config.ts).
 */
export const billing = createBilling();

/**
 * Stripe price ids of the app's plans: the live account's (deployed: `STRIPE_PRICE_<PLAN>`, and for each meter a
 * plan charges `STRIPE_PRICE_<PLAN>__<METER>`, printed by scripts/sync-stripe-plans.ts) and the local fake's (`fw dev`:
 * it prices each plan of the config as `price_<plan>`, its meters as `price_<plan>__<meter>`). The metered prices
 * make each subscription carry an item per meter (pro: `api_calls`), which is how Stripe charges the usage pushed.
 */
const envPrice = (key: string, local: string) => process.env[`STRIPE_PRICE_${key.toUpperCase()}`] ?? local;
const STRIPE_PRICES = Object.fromEntries(Object.entries(localStripePriceIds(billing.plans)).map(([plan, local]) => [plan, envPrice(plan, local)]));
const STRIPE_METERED_PRICES = Object.fromEntries(
  Object.entries(localStripeMeteredPriceIds(billing.plans)).map(([plan, meters]) => [plan, Object.fromEntries(Object.entries(meters).map(([meter, local]) => [meter, envPrice(`${plan}__${meter}`, local)]))]),
);

let provider: BillingProvider | undefined;

/**
 * The payment provider: Stripe with `STRIPE_SECRET_KEY` and `STRIPE_WEBHOOK_SECRET` when they are set (deployed),
 * else the local fake that `fw dev` starts as its billing engine when no key is set, announced under `.fw/`.
 */
export function billingProvider(): BillingProvider {
  if (provider) return provider;
  if (process.env.STRIPE_SECRET_KEY) {
    provider = stripeProvider({ apiKey: process.env.STRIPE_SECRET_KEY, webhookSecret: process.env.STRIPE_WEBHOOK_SECRET ?? '', prices: STRIPE_PRICES, meteredPrices: STRIPE_METERED_PRICES });
    return provider;
  }
  const local = localStripeConnection();
  // Not cached: the fake may start after the first request.
  if (!local) throw new ServiceUnavailable('No payment provider: set STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET, or run fw dev without STRIPE_SECRET_KEY (it starts the local fake)', { code: 'BILLING_PROVIDER_UNAVAILABLE' });
  return stripeProvider({ ...local, prices: STRIPE_PRICES, meteredPrices: STRIPE_METERED_PRICES, maxNetworkRetries: 0 });
}
