import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { signStripeStyle } from '@framework/integrations';
import { billingMigrationSql, localStripeConnection, type LocalStripe } from '@framework-pro/billing';
import { runningLocalStripe } from '@framework-pro/billing/dev-engine';
import { startApp, type HttpClient, type TestApp } from '@framework/testing';

/** The route the provider's webhooks arrive at (src/routes/billing/webhook/post.ts). */
const WEBHOOK_PATH = '/billing/webhook';

const APP_DIR = path.dirname(path.dirname(fileURLToPath(import.meta.url)));

/**
 * A copy of the app in a temporary folder (node_modules linked): fw dev's local fake announces itself under the
 * copy's `.fw/`, never under the developer's.
 */
function copyApp(): string {
  let modules = APP_DIR;
  while (!fs.existsSync(path.join(modules, 'node_modules', '@framework', 'cli'))) modules = path.dirname(modules);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tasks-api-billing-'));
  fs.chmodSync(dir, 0o755);
  fs.cpSync(APP_DIR, dir, { recursive: true, filter: (src) => !/[\\/](node_modules|\.fw|test)$/.test(src) });
  fs.symlinkSync(path.join(modules, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
  return dir;
}

/**
 * The acceptance of billing, offline: the app on the testing package's in-process fw dev (manual clock), the payment
 * provider played by the package's local Stripe fake, which fw dev started as its billing engine (the app declares
 * `billing` and no STRIPE_SECRET_KEY): over HTTP, charging the plans of fw.config.ts, on fw dev's clock, its signed
 * webhooks delivered to the app's route. The test drives the provider's side (closing its periods) through it.
 */
describe('tasks-api billing (local provider fake, signed webhooks)', function () {
  this.timeout(300_000);
  let dir: string;
  let cwd: string;
  let app: TestApp<HttpClient>;
  let fake: LocalStripe;

  before(async () => {
    dir = copyApp();
    cwd = process.cwd();
    // Functions run with the project folder as working directory, where the app's code looks for the fake.
    process.chdir(dir);
    app = await startApp({ root: dir, engines: { databases: 'embedded' } });
    // fw dev's billing engine: started with the app, announced where src/lib/billing.ts looks.
    fake = runningLocalStripe(dir)!;
    expect(fake, 'fw dev started no local payment provider (is STRIPE_SECRET_KEY set?)').not.to.equal(undefined);
    expect(localStripeConnection(dir)).to.deep.equal({ apiUrl: fake.url, apiKey: fake.apiKey, webhookSecret: fake.webhookSecret });
  });
  after(async () => {
    await app?.stop();
    // Stopped with fw dev: its announcement is withdrawn.
    if (dir) expect(localStripeConnection(dir)).to.equal(undefined);
    process.chdir(cwd);
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const admin = () => app.as({ roles: ['admin'], sub: 'ada', tenant: 'acme' });

  it("ships the package's billing tables as migration 0020", () => {
    expect(fs.readFileSync(path.join(APP_DIR, 'migrations', '0020_billing.sql'), 'utf8')).to.equal(billingMigrationSql({ rowLevelSecurity: true }));
  });

  it('subscribe, pay for pro on the checkout page, the webhook updates the snapshot; a paid invoice sends a receipt', async () => {
    const subscribed = await admin().post('/billing/subscribe', { email: 'billing@acme.test' });
    expect(subscribed.status, subscribed.text).to.equal(201);
    // Subscribing twice finds the same customer.
    expect((await admin().post('/billing/subscribe', { email: 'billing@acme.test' })).body).to.deep.equal(subscribed.body);

    const checkout = await admin().post('/billing/checkout', { plan: 'pro', seats: 3, successUrl: 'http://localhost:5173/billing/ok', cancelUrl: 'http://localhost:5173/billing' });
    expect(checkout.status, checkout.text).to.equal(201);
    const { url } = checkout.body as { url: string };
    const paid = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'pay=yes', redirect: 'manual' });
    expect(paid.status).to.equal(303);
    await fake.idle();
    expect(fake.deliveries.filter((d) => !d.delivered)).to.deep.equal([]);

    const [snapshot] = await app.db().query('SELECT tenant_id, plan_id, status, seats, provider_subscription_id FROM fw_billing_subscriptions');
    expect(snapshot).to.include({ tenant_id: 'acme', plan_id: 'pro', status: 'active', seats: 3 });

    fake.closePeriod(String((snapshot as { provider_subscription_id: string }).provider_subscription_id));
    await fake.idle();
    await app.drain();
    const receipts = await app.db().query("SELECT recipient, data->>'amountPaidCents' AS paid FROM fw_notify_outbox WHERE template = 'billing-receipt'");
    expect(receipts).to.deep.equal([{ recipient: 'billing@acme.test', paid: String(3 * 1200) }]);
  });

  it('the whole flow: a seat limit (402), the upgrade through checkout and webhook, metered calls on the closed period\'s invoice', async () => {
    const initech = () => app.as({ roles: ['admin'], sub: 'peter', tenant: 'initech' });
    expect((await initech().post('/billing/subscribe', { email: 'billing@initech.test' })).status).to.equal(201);

    // Free: two seats.
    for (const email of ['a@initech.test', 'b@initech.test']) expect((await initech().post('/members', { email })).status).to.equal(201);
    const refused = await initech().post('/members', { email: 'c@initech.test' });
    expect(refused.status, refused.text).to.equal(402);
    expect((refused.body as { error: { code: string; details: Record<string, unknown> } }).error).to.deep.include({ code: 'FEATURE_LIMIT_EXCEEDED' });
    expect((refused.body as { error: { details: Record<string, unknown> } }).error.details).to.include({ feature: 'seats', plan: 'free', limit: 2, requested: 3, upgradeTo: 'pro' });

    // Upgrade: the provider's checkout page, paid; its webhook moves the snapshot to pro.
    const checkout = await initech().post('/billing/checkout', { plan: 'pro', seats: 3, successUrl: 'http://localhost:5173/ok', cancelUrl: 'http://localhost:5173/' });
    await fetch((checkout.body as { url: string }).url, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'pay=yes', redirect: 'manual' });
    await fake.idle();
    expect(await app.db().query("SELECT plan_id, seats FROM fw_billing_subscriptions WHERE tenant_id = 'initech'")).to.deep.equal([{ plan_id: 'pro', seats: 3 }]);
    // Another function's process may hold the free plan for its cache's few seconds (a bounded, documented window).
    let invited = await initech().post('/members', { email: 'c@initech.test' });
    for (let attempt = 0; invited.status === 402 && attempt < 40; attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 500));
      invited = await initech().post('/members', { email: 'c@initech.test' });
    }
    expect(invited.status, invited.text).to.equal(201);

    // Metered calls: one api_calls unit per request.
    for (let i = 0; i < 4; i++) expect((await initech().get('/members')).status).to.equal(200);
    const [{ n }] = (await app.db().query("SELECT count(*)::int AS n FROM fw_billing_usage_events WHERE tenant_id = 'initech' AND meter = 'api_calls'")) as [{ n: number }];
    expect(n).to.equal(4);

    // The billing clock: past the period's end and the grace hour, the billing-close cron invoices the period.
    const trace = await app.clock.advance('32d');
    expect(trace.filter((t) => t.id === 'billing-close' && !t.ok)).to.deep.equal([]);
    const [invoice] = (await app.db().query("SELECT id, plan_id, total FROM fw_billing_invoices WHERE tenant_id = 'initech'")) as [{ id: string; plan_id: string; total: string }];
    expect(invoice).to.include({ plan_id: 'pro' });
    const lines = (await app.db().query('SELECT kind, meter, quantity::int AS quantity, amount::int AS amount FROM fw_billing_invoice_lines WHERE invoice_id = $1 ORDER BY position', [invoice.id])) as { kind: string; meter: string | null; quantity: number; amount: number }[];
    const usage = lines.filter((line) => line.kind === 'usage');
    expect(usage.map((line) => [line.meter, line.quantity, line.amount])).to.deep.equal([['api_calls', 4, 0]]);
    expect(lines.reduce((sum, line) => sum + line.amount, 0)).to.equal(Number(invoice.total));

    // The closed usage went to the provider once, as a meter event of the tenant's customer.
    const [customer] = (await app.db().query("SELECT customer_id FROM billing_customers WHERE tenant_id = 'initech'")) as [{ customer_id: string }];
    const pushed = fake.meterEvents.filter((event) => (event['payload'] as { stripe_customer_id: string }).stripe_customer_id === customer.customer_id);
    expect(pushed.map((event) => [event['event_name'], (event['payload'] as { value: string }).value])).to.deep.equal([['api_calls', '4']]);

    // The provider closes its period (charging the plans of fw.config.ts); the next cron run reconciles: the closed
    // period's invoice total equals the provider's invoice total, in cents, and the provider's invoice id is stored.
    const [subscription] = (await app.db().query("SELECT provider_subscription_id FROM fw_billing_subscriptions WHERE tenant_id = 'initech'")) as [{ provider_subscription_id: string }];
    // The subscription the checkout created carries the plan's licensed price (the seats) and its metered price
    // (api_calls, no quantity): the provider charges the pushed calls on that item.
    const items = (fake.subscription(subscription.provider_subscription_id)['items'] as { data: { price: { id: string }; quantity?: number }[] }).data;
    expect(items.map((item) => [item.price.id, item.quantity ?? null])).to.deep.equal([['price_pro', 3], ['price_pro__api_calls', null]]);
    const theirs = fake.closePeriod(subscription.provider_subscription_id);
    const theirLines = (theirs['lines'] as { data: { description: string; quantity: number; amount: number }[] }).data;
    expect(theirLines.map((line) => [line.description, line.quantity, line.amount])).to.deep.include(['4 × api_calls', 4, 0]);
    await fake.idle();
    await app.drain();
    const next = await app.clock.advance('1d');
    expect(next.filter((t) => t.id === 'billing-close' && !t.ok)).to.deep.equal([]);
    const [reconciled] = (await app.db().query("SELECT total::int AS total, provider_invoice_id FROM fw_billing_invoices WHERE tenant_id = 'initech'")) as [{ total: number; provider_invoice_id: string | null }];
    expect(reconciled).to.deep.equal({ total: theirs['total'], provider_invoice_id: theirs.id });
    // pro at 3 seats, 4 calls within the 1000 included.
    expect(reconciled.total).to.equal(3 * 1200);
  });

  it("an invited member's account is made in the inviting admin's tenant (service.auth); again is the same invitation; another tenant's address is 409", async () => {
    const globex = () => app.as({ roles: ['admin'], sub: 'hank', tenant: 'globex' });
    const invited = await globex().post('/members', { email: 'lee@globex.test' });
    expect(invited.status, invited.text).to.equal(201);
    expect(invited.body).to.deep.equal({ email: 'lee@globex.test', invitedBy: 'hank', account: { roles: ['member'], status: 'FORCE_CHANGE_PASSWORD', tenant: 'globex' } });
    const again = await globex().post('/members', { email: 'lee@globex.test', role: 'member' });
    expect([again.status, (again.body as { account: { tenant: string } }).account.tenant]).to.deep.equal([201, 'globex']);

    // The address has an account of globex: another tenant's admin cannot invite it, and nothing of theirs is kept
    const umbrella = () => app.as({ roles: ['admin'], sub: 'alice', tenant: 'umbrella' });
    const taken = await umbrella().post('/members', { email: 'lee@globex.test' });
    expect([taken.status, (taken.body as { error: { code: string } }).error.code]).to.deep.equal([409, 'USER_EXISTS']);
    expect((await umbrella().get('/members')).body).to.deep.equal({ members: [] });
    expect((await globex().get('/members')).body).to.deep.equal({ members: [{ email: 'lee@globex.test', invitedBy: 'hank' }] });

    // Another tenant's admin cannot remove them (404: not their member); their own admin can, account and all
    const notTheirs = await umbrella().request('DELETE', '/members/lee@globex.test');
    expect([notTheirs.status, (notTheirs.body as { error: { code: string } }).error.code]).to.deep.equal([404, 'NOT_FOUND']);
    const removed = await globex().request('DELETE', '/members/lee@globex.test');
    expect([removed.status, removed.body]).to.deep.equal([200, { email: 'lee@globex.test', accountRemoved: true }]);
    expect((await globex().get('/members')).body).to.deep.equal({ members: [] });
    // The address is free again: an invitation makes a new account
    const reinvited = await umbrella().post('/members', { email: 'lee@globex.test' });
    expect([reinvited.status, (reinvited.body as { account: { tenant: string } }).account.tenant]).to.deep.equal([201, 'umbrella']);
  });

  it('refuses a forged webhook with 401 and an unsigned one with 400, coded', async () => {
    const payload = JSON.stringify(fake.events.at(-1));
    const forged = signStripeStyle('whsec_attacker', new Date(), payload);
    const refused = await app.anonymous.request('POST', WEBHOOK_PATH, { body: payload, headers: { 'content-type': 'application/json', 'stripe-signature': forged } });
    expect([refused.status, (refused.body as { error: { code: string } }).error.code]).to.deep.equal([401, 'BILLING_WEBHOOK_SIGNATURE_INVALID']);
    const unsigned = await app.anonymous.request('POST', WEBHOOK_PATH, { body: payload, headers: { 'content-type': 'application/json' } });
    expect([unsigned.status, (unsigned.body as { error: { code: string } }).error.code]).to.deep.equal([400, 'BILLING_WEBHOOK_SIGNATURE_MISSING']);
  });
});
