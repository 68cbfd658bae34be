import * as fs from 'node:fs';
import * as path from 'node:path';
import { expect } from 'chai';
import type { AppDefinition } from '@framework/core';
import { LocalBillingEngine } from '../../src/dev/engines/billing.js';
import type { DevContext } from '../../src/dev/engines/engine.js';
import { DevServerError } from '../../src/errors.js';
import { eventually, REPO, startDev, type RunningDev } from './helpers.js';
import { smallProject } from './small-project.js';

/** fw.config.ts of a small app that declares billing (two plans) and a webhook route. */
const CONFIG = [
  `import { defineApp } from '@framework/core';`,
  `export default defineApp({`,
  `  base: { name: 'billed', region: 'eu-west-1' },`,
  `  security: { scopes: {} },`,
  `  envs: { dev: { preset: 'free', overrides: { functions: { timeout: 5 } } } },`,
  `  routesDir: 'src/routes',`,
  `  billing: {`,
  `    plans: {`,
  `      free: { currency: 'usd', features: { seats: 2 } },`,
  `      pro: { currency: 'usd', prices: [{ kind: 'flat', amount: 2900 }], features: { seats: 10 } },`,
  `    },`,
  `    defaultPlan: 'free',`,
  `  },`,
  `  infrastructure: {},`,
  `});`,
  '',
].join('\n');

const FILES = {
  'fw.config.ts': CONFIG,
  // The webhook route the engine's fake sends to: acknowledges (the billing package's tests verify and apply events).
  'src/routes/billing/webhook/post.ts': `export const main = async () => ({ statusCode: 200, body: '{"received":true}' });\n`,
  'src/routes/health/get.ts': `export const main = async () => ({ statusCode: 200, body: 'ok' });\n`,
};

const ANNOUNCEMENT = path.join('.fw', 'billing', 'local-stripe.json');
const STATE = path.join('.fw', 'billing', 'local-stripe-state.json');

interface Connection {
  apiUrl: string;
  apiKey: string;
  webhookSecret: string;
}

function announced(dir: string): Connection | undefined {
  const file = path.join(dir, ANNOUNCEMENT);
  return fs.existsSync(file) ? (JSON.parse(fs.readFileSync(file, 'utf8')) as Connection) : undefined;
}

async function stripeCall(connection: Connection, method: string, apiPath: string, form?: Record<string, string>): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(`${connection.apiUrl}${apiPath}`, {
    method,
    headers: { authorization: `Bearer ${connection.apiKey}`, ...(form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}) },
    ...(form ? { body: new URLSearchParams(form).toString() } : {}),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

/** Runs `start` with STRIPE_SECRET_KEY set to `value` (or unset) in the environment fw dev inherits. */
async function withProviderKey<T>(value: string | undefined, start: () => Promise<T>): Promise<T> {
  const previous = process.env.STRIPE_SECRET_KEY;
  if (value === undefined) delete process.env.STRIPE_SECRET_KEY;
  else process.env.STRIPE_SECRET_KEY = value;
  try {
    return await start();
  } finally {
    if (previous === undefined) delete process.env.STRIPE_SECRET_KEY;
    else process.env.STRIPE_SECRET_KEY = previous;
  }
}

/**
 * `fw dev` runs @framework-pro/billing's local Stripe fake as an engine when the app declares `billing` and no
 * provider key is set: loaded from the app's dependencies (the CLI does not depend on the commercial package),
 * announced under `.fw/billing/`, its objects kept there across restarts, its webhooks sent to the app, stopped with
 * fw dev.
 */
describe('fw dev billing engine (the local payment provider)', function () {
  this.timeout(300_000);
  let dir: string | undefined;
  let dev: RunningDev | undefined;
  afterEach(async () => {
    await dev?.stop();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
    dir = dev = undefined;
  });

  it('starts the fake on a free port, prints and announces it, sends it webhooks, keeps its objects across a restart, stops it with fw dev', async () => {
    dir = smallProject(FILES);
    dev = await withProviderKey(undefined, () => startDev(dir!));
    const first = announced(dir);
    expect(first, 'no .fw/billing/local-stripe.json').not.to.equal(undefined);
    expect(first!.apiUrl).to.match(/^http:\/\/127\.0\.0\.1:\d+$/);
    // The start-up table's engine line names it (printed once the routes are loaded, after "serving at").
    await eventually(async () => (dev!.output().includes('Dev console:') ? true : undefined), 120_000, 'the start-up table');
    expect(dev.output()).to.match(/billing\s+embedded\s+local Stripe fake http:\/\/127\.0\.0\.1:\d+ .*webhooks to POST \/billing\/webhook, prices free=price_free, pro=price_pro/);

    // The adapter's calls work against it, with the announced key; other keys are refused.
    const customer = await stripeCall(first!, 'POST', '/v1/customers', { email: 'ops@acme.test', 'metadata[tenant_id]': 'acme' });
    expect(customer.status).to.equal(200);
    expect((await stripeCall({ ...first!, apiKey: 'sk_test_other' }, 'GET', `/v1/customers/${String(customer.body['id'])}`)).status).to.equal(401);

    // A subscription's webhooks reach the app's route, signed, and are acknowledged by it.
    const subscription = await stripeCall(first!, 'POST', '/v1/subscriptions', { customer: String(customer.body['id']), 'items[0][price]': 'price_pro', 'metadata[tenant_id]': 'acme' });
    expect(subscription.status).to.equal(200);
    let deliveries: { type: string; delivered: boolean; status: number }[] = [];
    for (let attempt = 0; attempt < 100; attempt++) {
      deliveries = ((await (await fetch(`${first!.apiUrl}/_fake/events`, { headers: { authorization: `Bearer ${first!.apiKey}` } })).json()) as { deliveries: typeof deliveries }).deliveries;
      if (deliveries.some((d) => d.type === 'customer.subscription.created' && d.delivered)) break;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(deliveries.find((d) => d.type === 'customer.subscription.created')).to.include({ delivered: true, status: 200 });

    // Stopped with fw dev: the announcement goes, the state stays.
    await dev.stop();
    dev = undefined;
    expect(announced(dir)).to.equal(undefined);
    expect(fs.existsSync(path.join(dir, STATE))).to.equal(true);
    expect((await fetch(`${first!.apiUrl}/v1/customers`).catch(() => undefined))?.status).to.equal(undefined);

    // Restarted: the customer it acknowledged is still there.
    dev = await withProviderKey(undefined, () => startDev(dir!));
    const second = announced(dir)!;
    const again = await stripeCall(second, 'GET', `/v1/customers/${String(customer.body['id'])}`);
    expect(again.status).to.equal(200);
    expect(again.body).to.include({ id: customer.body['id'], email: 'ops@acme.test' });
  });

  it('fails with FW_ERR_DEV_BILLING_NOT_INSTALLED naming `npm i @framework-pro/billing` when the app does not depend on it; starts no fake with STRIPE_SECRET_KEY set', async () => {
    dir = smallProject(FILES);
    // node_modules without @framework-pro: only the free packages (and what the CLI's config loader needs).
    fs.rmSync(path.join(dir, 'node_modules'));
    fs.mkdirSync(path.join(dir, 'node_modules'));
    for (const name of fs.readdirSync(path.join(REPO, 'node_modules'))) {
      if (name === '@framework-pro' || name === '.bin') continue;
      fs.symlinkSync(path.join(REPO, 'node_modules', name), path.join(dir, 'node_modules', name));
    }
    let failure: Error | undefined;
    await withProviderKey(undefined, () => startDev(dir!)).then(
      (started) => (dev = started),
      (error: Error) => (failure = error),
    );
    expect(failure?.message ?? 'fw dev started').to.contain('fw.config.ts declares billing').and.to.contain('npm i @framework-pro/billing');
    // fw prints a coded error's message; its code, from the engine itself:
    const engine = new LocalBillingEngine();
    const context = { rootDir: dir, dataDir: path.join(dir, '.fw'), baseUrl: 'http://127.0.0.1:1', host: '127.0.0.1' } as unknown as DevContext;
    const refused = await engine.start({ billing: { plans: {}, defaultPlan: 'free', graceSeconds: 0 }, routes: [] } as unknown as AppDefinition, context).then(() => undefined, (error: unknown) => error);
    expect(refused).to.be.instanceOf(DevServerError);
    expect((refused as DevServerError).code).to.equal('FW_ERR_DEV_BILLING_NOT_INSTALLED');

    // With a provider key the app talks to the provider: no fake, nothing to install.
    dev = await withProviderKey('sk_test_from_the_developer', () => startDev(dir!));
    expect((await fetch(`${dev.url}/health`)).status).to.equal(200);
    expect(announced(dir)).to.equal(undefined);
    await eventually(async () => (dev!.output().includes('Dev console:') ? true : undefined), 120_000, 'the start-up table');
    expect(dev.output()).not.to.contain('local Stripe fake');
  });
});
