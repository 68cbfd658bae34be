import { createBilling, localStripeConnection, stripeProvider, type BillingProvider, type LocalStripeOptions } from '@framework-pro/billing';
import { ServiceUnavailable } from '@framework/runtime';
import { plans } from './plans.js';

/** Entitlements (`requireFeature`), metering (`track`) and period close, on the app's database. */
export const billing = createBilling({ plans });

/** Stripe price ids of the app's plans: the live account's (deployed) and the local fake's (`fw dev`). */
const STRIPE_PRICES = { free: process.env.STRIPE_PRICE_FREE ?? 'price_free', pro: process.env.STRIPE_PRICE_PRO ?? 'price_pro' };

/** What the local fake charges (scripts/local-stripe.ts and the tests start it with these), in cents. */
export const LOCAL_PRICES: LocalStripeOptions['prices'] = {
  price_free: { unitAmountCents: 0, nickname: 'Free' },
  price_pro: { unitAmountCents: 1200, nickname: 'Pro seat' },
};
export const LOCAL_METER_PRICES: LocalStripeOptions['meterPrices'] = { api_calls: { unitAmountDecimal: '0.1', includedUnits: 1000 } };

/** The route the provider's webhooks arrive at (src/routes/billing/webhook/post.ts). */
export const WEBHOOK_PATH = '/billing/webhook';

let provider: BillingProvider | undefined;

/**
 * The payment provider: Stripe with `STRIPE_SECRET_KEY` and `STRIPE_WEBHOOK_SECRET` when they are set (deployed),
 * else the local fake that `npx tsx scripts/local-stripe.ts` (or a test) started and announced under `.fw/`.
 */
export function billingProvider(): BillingProvider {
  if (provider) return provider;
  if (process.env.STRIPE_SECRET_KEY) {
    provider = stripeProvider({ apiKey: process.env.STRIPE_SECRET_KEY, webhookSecret: process.env.STRIPE_WEBHOOK_SECRET ?? '', prices: STRIPE_PRICES });
    return provider;
  }
  const local = localStripeConnection();
  // Not cached: the fake may start after the first request.
  if (!local) throw new ServiceUnavailable('No payment provider: set STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET, or start the local fake with `npx tsx scripts/local-stripe.ts`', { code: 'BILLING_PROVIDER_UNAVAILABLE' });
  return stripeProvider({ ...local, prices: STRIPE_PRICES, maxNetworkRetries: 0 });
}
