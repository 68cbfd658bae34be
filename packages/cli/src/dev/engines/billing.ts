import type { AppDefinition } from '@framework/core';
import { createRequire } from 'node:module';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { DevServerError } from '../../errors.js';
import type { DevContext, DevEngine, EngineFactory, EngineStart } from './engine.js';

/** The package whose local payment provider fake this engine runs (commercial: loaded from the app, never a dependency of the CLI). */
export const BILLING_PACKAGE = '@framework-pro/billing';
/** Its entry point for fw dev (no license check, no runtime parts). */
export const BILLING_DEV_ENTRY = `${BILLING_PACKAGE}/dev-engine`;
/** A configured provider key: the app talks to that provider, and fw dev starts no fake. */
export const PROVIDER_KEY_VARIABLE = 'STRIPE_SECRET_KEY';

/**
 * What `@framework-pro/billing/dev-engine` exports, as this engine calls it: plain values in, a running fake out.
 * Written here structurally, so the free CLI compiles without the commercial package (and neither imports the other).
 */
interface BillingDevEntry {
  startLocalBilling(options: {
    rootDir: string;
    dataDir: string;
    baseUrl: string;
    plans: NonNullable<AppDefinition['billing']>;
    now?: () => number;
    routes?: readonly string[];
    log?: { warn(message: string): void };
  }): Promise<{ readonly url: string; readonly summary: readonly string[]; stop(): Promise<void> }>;
}

/**
 * Loads the billing dev entry from the app's own dependencies (resolved from its folder, as its functions resolve
 * it), or fails with the command that installs it.
 */
async function loadBillingDevEntry(rootDir: string): Promise<BillingDevEntry> {
  let resolved: string;
  try {
    resolved = createRequire(path.join(rootDir, 'package.json')).resolve(BILLING_DEV_ENTRY);
  } catch (error) {
    throw new DevServerError(
      'FW_ERR_DEV_BILLING_NOT_INSTALLED',
      `fw.config.ts declares billing and ${PROVIDER_KEY_VARIABLE} is not set, so fw dev runs the local payment provider of ${BILLING_PACKAGE}, which this app does not depend on: npm i ${BILLING_PACKAGE} (or set ${PROVIDER_KEY_VARIABLE} to use Stripe, or remove billing from fw.config.ts)`,
      { cause: error },
    );
  }
  return (await import(pathToFileURL(resolved).href)) as BillingDevEntry;
}

/**
 * The local payment provider: `@framework-pro/billing`'s Stripe fake, for an app that declares `billing` and has no
 * provider key. It listens on a free port of 127.0.0.1, charges the plans of fw.config.ts, keeps its objects in
 * `.fw/billing/` (a restart loses nothing it acknowledged), sends signed webhooks to the app's `POST /billing/webhook`
 * and announces itself in `.fw/billing/local-stripe.json`, where the app's code finds it (`localStripeConnection()`).
 */
export class LocalBillingEngine implements DevEngine {
  readonly intent = 'billing' as const;
  readonly kind = 'embedded' as const;
  private running?: { stop(): Promise<void> };

  async start(app: AppDefinition, context: DevContext): Promise<EngineStart<'billing'>> {
    const entry = await loadBillingDevEntry(context.rootDir);
    const clock = context.clock;
    const started = await entry.startLocalBilling({
      rootDir: context.rootDir,
      dataDir: context.dataDir,
      baseUrl: context.baseUrl,
      plans: app.billing!,
      ...(clock ? { now: () => clock.now() } : {}),
      routes: app.routes.map((route) => `${route.method} ${route.path}`),
      log: context.log,
    });
    this.running = started;
    return { outputs: {}, summary: started.summary };
  }

  async stop(): Promise<void> {
    await this.running?.stop();
  }
}

export const embeddedBilling: EngineFactory = {
  intent: 'billing',
  kind: 'embedded',
  label: `local Stripe fake (${BILLING_PACKAGE})`,
  isAvailable: async () => true,
  // With a provider key the app reaches the real provider (test mode), and a fake would only confuse.
  isNeeded: (app) => app.billing !== undefined && !process.env[PROVIDER_KEY_VARIABLE],
  create: () => new LocalBillingEngine(),
};
