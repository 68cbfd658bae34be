// The local payment provider for `fw dev`: a fake of Stripe's API that sends signed webhooks to this app.
//   npx tsx scripts/local-stripe.ts [app URL, default http://localhost:3000]
// It charges the plans of fw.config.ts, announces itself under .fw/ (the app's src/lib/billing.ts finds it there) and keeps its objects in
// .fw/billing/local-stripe-state.json across restarts. Ctrl-C stops it.
import * as path from 'node:path';
import { announceLocalStripe, LocalStripe, withdrawLocalStripe } from '@framework-pro/billing';
import app from '../fw.config.js';

/** The route the provider's webhooks arrive at (src/routes/billing/webhook/post.ts). */
const WEBHOOK_PATH = '/billing/webhook';

const root = process.cwd();
const appUrl = process.argv[2] ?? 'http://localhost:3000';
// The plans of fw.config.ts: the fake charges exactly what the app declares.
const fake = await LocalStripe.start({ plans: app.billing!, webhookUrl: `${appUrl}${WEBHOOK_PATH}`, stateFile: path.join(root, '.fw', 'billing', 'local-stripe-state.json') });
announceLocalStripe(root, { apiUrl: fake.url, apiKey: fake.apiKey, webhookSecret: fake.webhookSecret });
console.log(`local Stripe fake at ${fake.url}, webhooks to ${appUrl}${WEBHOOK_PATH}`);
process.once('SIGINT', () => {
  withdrawLocalStripe(root);
  void fake.stop().then(() => process.exit(0));
});
