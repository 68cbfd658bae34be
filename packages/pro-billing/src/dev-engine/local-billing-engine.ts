import * as path from 'node:path';
import type { BillingPlans } from '../model.js';
import { announceLocalStripe, localStripeConnection, withdrawLocalStripe } from '../local/local-stripe-file.js';
import { LocalStripe } from '../local/local-stripe.js';
import { localStripeMeteredPriceIds, localStripePriceIds } from '../local/plan-prices.js';
import { forgetRunningLocalStripe, rememberRunningLocalStripe } from './running-local-stripe.js';

/**
 * The route the fake sends its webhooks to, on the dev server: the README's webhook route (`POST /billing/webhook`,
 * `verifiedBillingEvent` then `applyBillingEvent`). An app whose route is elsewhere sets `webhookPath`.
 */
export const LOCAL_BILLING_WEBHOOK_PATH = '/billing/webhook';

/** Where the fake keeps its objects under fw dev's data folder (`.fw/billing/`): nothing acknowledged is lost on restart. */
export const LOCAL_BILLING_STATE_FILE = path.join('billing', 'local-stripe-state.json');

/**
 * What `fw dev` gives the billing engine. The CLI (a free package) does not import this package: it loads this entry
 * point (`@framework-pro/billing/dev-engine`) from the app's own dependencies when the app declares `billing`, and
 * calls `startLocalBilling` with plain values, so neither package's types depend on the other's.
 */
export interface LocalBillingEngineOptions {
  /** The project folder: the fake announces itself in `<rootDir>/.fw/billing/local-stripe.json` (`localStripeConnection()`). */
  readonly rootDir: string;
  /** fw dev's data folder (`<rootDir>/.fw`, a test's own folder under the testing package): the fake's state file. */
  readonly dataDir: string;
  /** The dev server's URL: webhooks go to `${baseUrl}${webhookPath}`. */
  readonly baseUrl: string;
  /** The app model's `billing` (checked by core): the fake charges exactly these plans. */
  readonly plans: BillingPlans;
  /** fw dev's clock (the testing package's manual one in tests): the fake's periods and proration read it. */
  readonly now?: () => number;
  /** The app's routes as `METHOD /path`, to warn when no route receives the webhooks. */
  readonly routes?: readonly string[];
  /** @default LOCAL_BILLING_WEBHOOK_PATH */
  readonly webhookPath?: string;
  readonly log?: { warn(message: string): void };
}

/** A running local billing engine: the fake, and what the start-up table prints. */
export interface LocalBillingEngine {
  readonly fake: LocalStripe;
  readonly url: string;
  readonly summary: readonly string[];
  stop(): Promise<void>;
}

/**
 * Starts the local Stripe fake as one of fw dev's engines: a free port on 127.0.0.1, the plans of fw.config.ts as its
 * prices, its objects kept in `<dataDir>/billing/local-stripe-state.json`, its webhooks signed and sent to the dev
 * server's webhook route, and its address announced where the app's code reads it (`localStripeConnection()`).
 */
export async function startLocalBilling(options: LocalBillingEngineOptions): Promise<LocalBillingEngine> {
  const webhookPath = options.webhookPath ?? LOCAL_BILLING_WEBHOOK_PATH;
  const now = options.now;
  const fake = await LocalStripe.start({
    plans: options.plans,
    webhookUrl: `${options.baseUrl}${webhookPath}`,
    stateFile: path.join(options.dataDir, LOCAL_BILLING_STATE_FILE),
    ...(now ? { now: () => new Date(now()) } : {}),
  });
  const connection = { apiUrl: fake.url, apiKey: fake.apiKey, webhookSecret: fake.webhookSecret };
  announceLocalStripe(options.rootDir, connection);
  rememberRunningLocalStripe(options.rootDir, fake);
  if (options.routes && !options.routes.includes(`POST ${webhookPath}`)) {
    options.log?.warn(`billing: no route POST ${webhookPath} receives the local payment provider's webhooks (subscription changes, paid invoices); add src/routes${webhookPath}/post.ts (see @framework-pro/billing's README, "Webhooks")`);
  }
  const metered = Object.entries(localStripeMeteredPriceIds(options.plans)).flatMap(([plan, meters]) => Object.entries(meters).map(([meter, price]) => `${plan}.${meter}=${price}`));
  const prices = [Object.entries(localStripePriceIds(options.plans)).map(([plan, price]) => `${plan}=${price}`).join(', '), ...(metered.length ? [`metered ${metered.join(', ')}`] : [])].join('; ');
  return {
    fake,
    url: fake.url,
    summary: [`local Stripe fake ${fake.url} (key ${fake.apiKey}), webhooks to POST ${webhookPath}, prices ${prices}, state ${path.relative(options.rootDir, path.join(options.dataDir, LOCAL_BILLING_STATE_FILE)).split(path.sep).join('/')}`],
    stop: async () => {
      forgetRunningLocalStripe(options.rootDir, fake);
      // Only our own announcement: a fake started later by a script or a test keeps its own.
      if (localStripeConnection(options.rootDir)?.apiUrl === connection.apiUrl) withdrawLocalStripe(options.rootDir);
      await fake.stop();
    },
  };
}
