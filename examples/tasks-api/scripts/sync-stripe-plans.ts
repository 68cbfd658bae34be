// Creates or updates the plans of fw.config.ts as Stripe products and prices (idempotent: run it after each change
// of the plans, before deploying):
//   STRIPE_SECRET_KEY=sk_test_... npx tsx scripts/sync-stripe-plans.ts
// It prints the price ids to set as STRIPE_PRICE_<PLAN> and, per meter a plan charges, STRIPE_PRICE_<PLAN>__<METER>
// (src/lib/billing.ts reads them: each subscription carries the plan's licensed price and its metered prices). A changed price is a new
// Stripe price that takes the lookup key over; subscriptions keep their old price until they change plan.
// Without STRIPE_SECRET_KEY it syncs the fake `fw dev` runs (announced under .fw/billing/).
import { localStripeConnection, syncStripePlans } from '@framework-pro/billing';
import app from '../fw.config.js';

const local = process.env.STRIPE_SECRET_KEY ? undefined : localStripeConnection();
const apiKey = process.env.STRIPE_SECRET_KEY ?? local?.apiKey;
if (!apiKey) {
  console.error('Set STRIPE_SECRET_KEY (or run fw dev, whose local fake this script then syncs).');
  process.exit(1);
}
const result = await syncStripePlans(app.billing!, { apiKey, ...(local ? { apiUrl: local.apiUrl } : {}) });
console.log(`prices created: ${result.created.join(', ') || 'none'}; unchanged: ${result.unchanged.join(', ') || 'none'}`);
for (const [plan, price] of Object.entries(result.prices)) console.log(`STRIPE_PRICE_${plan.toUpperCase()}=${price}`);
for (const [plan, meters] of Object.entries(result.meteredPrices)) {
  for (const [meter, price] of Object.entries(meters)) console.log(`STRIPE_PRICE_${plan.toUpperCase()}__${meter.toUpperCase()}=${price}`);
}
