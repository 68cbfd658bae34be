import { createBilling, localStripeConnection, localStripePriceIds, stripeProvider, type BillingProvider } from '@framework-pro/billing';
import { ServiceUnavailable } from '@framework/runtime';

/**
 * Entitlements (`requireFeature`), metering (`track`) and period close, on the app's database, with the plans of
 * fw.config.ts's `billing` (they reach functions as data, so no function loads fw.config.ts).
 */
export const billing = createBilling();

/**
 * Stripe price ids of the app's plans: the live account's (deployed: `STRIPE_PRICE_<PLAN>`) and the local fake's
 * (`fw dev`: it prices each plan of the config as `price_<plan>`).
 */
const LOCAL_PRICE_IDS = localStripePriceIds(billing.plans);
const STRIPE_PRICES = Object.fromEntries(Object.entries(LOCAL_PRICE_IDS).map(([plan, local]) => [plan, process.env[`STRIPE_PRICE_${plan.toUpperCase()}`] ?? local]));

let provider: BillingProvider | undefined;

/**
 * The payment provider: Stripe with `STRIPE_SECRET_KEY` and `STRIPE_WEBHOOK_SECRET` when they are set (deployed),
 * else the local fake that `fw dev` starts as its billing engine when no key is set, announced under `.fw/`.
 */
export function billingProvider(): BillingProvider {
  if (provider) return provider;
  if (process.env.STRIPE_SECRET_KEY) {
    provider = stripeProvider({ apiKey: process.env.STRIPE_SECRET_KEY, webhookSecret: process.env.STRIPE_WEBHOOK_SECRET ?? '', prices: STRIPE_PRICES });
    return provider;
  }
  const local = localStripeConnection();
  // Not cached: the fake may start after the first request.
  if (!local) throw new ServiceUnavailable('No payment provider: set STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET, or run fw dev without STRIPE_SECRET_KEY (it starts the local fake)', { code: 'BILLING_PROVIDER_UNAVAILABLE' });
  return stripeProvider({ ...local, prices: STRIPE_PRICES, maxNetworkRetries: 0 });
}
