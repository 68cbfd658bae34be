import { expect } from 'chai';
import Stripe from 'stripe';
import { BillingError, graduatedAmount, LocalStripe, localMeteredPriceId, localPriceId, localStripeMeteredPriceIds, localStripePriceIds, meterTiers, stripeProvider, syncStripePlans, type BillingProvider } from '../../src/index.js';
import { PLANS } from '../support/plans.js';

interface Item {
  id: string;
  price: { id: string; recurring: { usage_type: string; meter: string | null } };
  quantity?: number;
}

/** A raw call to the fake's API, as the SDK makes it (form-encoded). */
async function fakeCall(fake: LocalStripe, method: string, path: string, form: Record<string, string>): Promise<{ status: number; body: { error?: { message: string; param?: string } } & Record<string, unknown> }> {
  const response = await fetch(`${fake.url}${path}`, { method, headers: { authorization: `Bearer ${fake.apiKey}`, 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(form).toString() });
  return { status: response.status, body: (await response.json()) as { error?: { message: string } } & Record<string, unknown> };
}

/**
 * A plan's metered prices ride on the subscription as items of their own (as Stripe bills usage: one subscription
 * item per metered price, backed by a billing meter), beside the licensed price: created with the subscription or the
 * checkout, moved, deleted or added on a plan change, and charged at the fake's period close from the meter events.
 */
describe('metered prices as subscription items (adapter and fake over HTTP)', function () {
  this.timeout(120_000);
  let fake: LocalStripe;
  let provider: BillingProvider;
  let now: Date;
  const items = (subscriptionId: string) => (fake.subscription(subscriptionId)['items'] as { data: Item[] }).data;
  const shape = (subscriptionId: string) => items(subscriptionId).map((item) => [item.price.id, item.price.recurring.usage_type, item.quantity ?? null]);

  beforeEach(async () => {
    now = new Date('2026-03-01T00:00:00Z');
    fake = await LocalStripe.start({ plans: PLANS, now: () => now, autoDeliver: false });
    provider = stripeProvider({ apiKey: fake.apiKey, webhookSecret: fake.webhookSecret, apiUrl: fake.url, prices: localStripePriceIds(PLANS), meteredPrices: localStripeMeteredPriceIds(PLANS), maxNetworkRetries: 0 });
  });
  afterEach(async () => {
    await fake.stop();
  });

  it('gives the adapter one metered price per meter a plan charges (a hard allowance charges nothing)', () => {
    expect(localStripeMeteredPriceIds(PLANS)).to.deep.equal({ pro: { api_calls: 'price_pro__api_calls' }, team: { api_calls: 'price_team__api_calls', exports: 'price_team__exports' } });
  });

  it('a subscription to a plan with metered prices has the licensed item (the seats) and one metered item per meter, without quantity', async () => {
    const customer = await provider.createCustomer({ tenantId: 'acme' });
    const subscription = await provider.createSubscription({ customerId: customer.id, tenantId: 'acme', plan: 'team', seats: 7 });
    expect(subscription).to.include({ plan: 'team', seats: 7 });
    expect(shape(subscription.id)).to.deep.equal([
      ['price_team', 'licensed', 7],
      ['price_team__api_calls', 'metered', null],
      ['price_team__exports', 'metered', null],
    ]);
    // Each metered price is backed by the billing meter of its event name, listed by the fake.
    expect(items(subscription.id)[1]!.price.recurring.meter).to.equal('mtr_local_api_calls');
    const meters = (await (await fetch(`${fake.url}/v1/billing/meters`, { headers: { authorization: `Bearer ${fake.apiKey}` } })).json()) as { data: { id: string; event_name: string }[] };
    expect(meters.data.map((m) => [m.id, m.event_name])).to.deep.equal([['mtr_local_api_calls', 'api_calls'], ['mtr_local_exports', 'exports']]);
    // A plan without charged meters: its licensed item only.
    const free = await provider.createSubscription({ customerId: customer.id, tenantId: 'acme', plan: 'free' });
    expect(shape(free.id)).to.deep.equal([['price_free', 'licensed', 1]]);
  });

  it('a paid checkout creates the subscription with the same items; its webhook names the plan and seats', async () => {
    const customer = await provider.createCustomer({ tenantId: 'acme' });
    const session = await provider.createCheckoutSession({ customerId: customer.id, tenantId: 'acme', plan: 'pro', seats: 4, successUrl: 'http://localhost/ok', cancelUrl: 'http://localhost/no' });
    const page = await (await fetch(session.url)).text();
    expect(page).to.contain('price_pro × 4').and.contain('price_pro__api_calls (metered: billed on usage)');
    const subscriptionId = String(fake.completeCheckout(session.id)['subscription']);
    expect(shape(subscriptionId)).to.deep.equal([['price_pro', 'licensed', 4], ['price_pro__api_calls', 'metered', null]]);
    const created = fake.heldEvents.find((event) => event['type'] === 'customer.subscription.created')!;
    const payload = JSON.stringify(created);
    const parsed = await provider.parseWebhook(payload, { 'stripe-signature': new Stripe('sk_test_signer').webhooks.generateTestHeaderString({ payload, secret: fake.webhookSecret }) });
    expect(parsed.subscription).to.include({ plan: 'pro', seats: 4, tenantId: 'acme' });
  });

  it('a plan change moves the licensed item and the metered items of shared meters, deletes the others and adds the new ones', async () => {
    const customer = await provider.createCustomer({ tenantId: 'acme' });
    const started = await provider.createSubscription({ customerId: customer.id, tenantId: 'acme', plan: 'pro', seats: 3 });
    const [licensed, apiCalls] = items(started.id);

    // pro -> team: api_calls moves (same item), exports is added; only the licensed item is prorated.
    now = new Date('2026-03-11T00:00:00Z'); // 21 of 31 days left
    const team = await provider.changePlan({ subscriptionId: started.id, plan: 'team' });
    expect(team).to.include({ plan: 'team', seats: 3 });
    expect(shape(started.id)).to.deep.equal([['price_team', 'licensed', 3], ['price_team__api_calls', 'metered', null], ['price_team__exports', 'metered', null]]);
    expect(items(started.id).slice(0, 2).map((item) => item.id)).to.deep.equal([licensed!.id, apiCalls!.id]);

    // team -> free: both metered items deleted.
    const free = await provider.changePlan({ subscriptionId: started.id, plan: 'free', proration: 'none' });
    expect(free).to.include({ plan: 'free' });
    expect(shape(started.id)).to.deep.equal([['price_free', 'licensed', 3]]);

    // free -> pro at 2 seats: api_calls added again.
    await provider.changePlan({ subscriptionId: started.id, plan: 'pro', seats: 2, proration: 'none' });
    expect(shape(started.id)).to.deep.equal([['price_pro', 'licensed', 2], ['price_pro__api_calls', 'metered', null]]);

    // The period's invoice: the pro -> team proration (unused pro credited, team for the rest), then the plan.
    now = new Date('2026-04-01T00:00:00Z');
    const invoice = fake.closePeriod(started.id) as unknown as Stripe.Invoice;
    const part = (amount: number) => Math.round((amount * 21) / 31);
    expect(invoice.lines.data.map((line) => [line.description, line.amount])).to.deep.equal([
      ['Unused time on 3 × Pro', -part(2900)],
      ['Remaining time on 3 × team', part(9900)],
      ['2 × Pro', 2900],
      ['0 × api_calls', 0],
    ]);
  });

  it('the fake refuses what Stripe refuses: a quantity on a metered item, one price twice, a metered price without a meter', async () => {
    const customer = await provider.createCustomer({ tenantId: 'acme' });
    const quantity = await fakeCall(fake, 'POST', '/v1/subscriptions', { customer: customer.id, 'items[0][price]': localPriceId('pro'), 'items[1][price]': localMeteredPriceId('pro', 'api_calls'), 'items[1][quantity]': '1' });
    expect([quantity.status, quantity.body.error?.param]).to.deep.equal([400, 'items[1][quantity]']);
    expect(quantity.body.error?.message).to.contain('usage_type is `metered`');
    const twice = await fakeCall(fake, 'POST', '/v1/subscriptions', { customer: customer.id, 'items[0][price]': localPriceId('pro'), 'items[1][price]': localPriceId('pro') });
    expect([twice.status, twice.body.error?.message]).to.deep.equal([400, 'Cannot add multiple subscription items with the same price: price_pro.']);
    await fakeCall(fake, 'POST', '/v1/products', { id: 'prod_x', name: 'x' });
    const noMeter = await fakeCall(fake, 'POST', '/v1/prices', { product: 'prod_x', currency: 'usd', unit_amount: '1', 'recurring[interval]': 'month', 'recurring[usage_type]': 'metered' });
    expect([noMeter.status, noMeter.body.error?.param]).to.deep.equal([400, 'recurring[meter]']);
    // A refused update leaves the subscription as it was.
    const subscription = await provider.createSubscription({ customerId: customer.id, tenantId: 'acme', plan: 'pro' });
    const [licensed] = items(subscription.id);
    const refused = await fakeCall(fake, 'POST', `/v1/subscriptions/${subscription.id}`, { 'items[0][id]': licensed!.id, 'items[0][price]': localPriceId('team'), 'items[1][id]': 'si_nope', 'items[1][deleted]': 'true' });
    expect(refused.status).to.equal(400);
    expect(shape(subscription.id)).to.deep.equal([['price_pro', 'licensed', 1], ['price_pro__api_calls', 'metered', null]]);
  });

  it('refuses metered prices for a plan it has no licensed price for, or a licensed price given as metered', () => {
    const base = { apiKey: fake.apiKey, webhookSecret: fake.webhookSecret, prices: { pro: 'price_pro' } };
    expect(() => stripeProvider({ ...base, meteredPrices: { team: { api_calls: 'price_team__api_calls' } } })).to.throw(BillingError, /meteredPrices names plan "team"/);
    expect(() => stripeProvider({ ...base, meteredPrices: { pro: { api_calls: 'price_pro' } } })).to.throw(BillingError, /a plan's licensed price/);
  });

  it('prices usage on the synced metered prices (Stripe tiers from the API) exactly as the package does', async () => {
    const synced = await syncStripePlans(PLANS, { apiKey: fake.apiKey, apiUrl: fake.url, maxNetworkRetries: 0 });
    // The sync finds the fake's meters by event name and backs its metered prices with them.
    expect(synced.meters).to.deep.equal({ api_calls: 'mtr_local_api_calls', exports: 'mtr_local_exports' });
    const adapter = stripeProvider({ apiKey: fake.apiKey, webhookSecret: fake.webhookSecret, apiUrl: fake.url, prices: synced.prices, meteredPrices: synced.meteredPrices, maxNetworkRetries: 0 });
    const customer = await adapter.createCustomer({ tenantId: 'acme' });
    const team = PLANS.plans['team']!;
    // Random usage on team's graduated tiers (exports: 10 free, 25 to 100, then 12.5 with a flat 100).
    let seed = 7;
    const random = (max: number) => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) % max);
    for (let round = 0; round < 4; round++) {
      now = new Date(Date.UTC(2026, 2 + round * 2, 1));
      const subscription = await adapter.createSubscription({ customerId: customer.id, tenantId: 'acme', plan: 'team', seats: 1 });
      expect(items(subscription.id).map((item) => item.price.id)).to.deep.equal([synced.prices['team'], synced.meteredPrices['team']!['api_calls'], synced.meteredPrices['team']!['exports']]);
      const exports = [0, 10, 11, 100, 101, 5000][random(6)]! + random(3);
      const calls = 100_000 + random(50_000);
      const at = new Date(now.getTime() + 86_400_000);
      await adapter.pushUsage([
        { tenantId: 'acme', customerId: customer.id, meter: 'exports', periodStart: now, sequence: 0, quantity: exports, timestamp: at },
        { tenantId: 'acme', customerId: customer.id, meter: 'api_calls', periodStart: now, sequence: 0, quantity: calls, timestamp: at },
      ]);
      const invoice = fake.closePeriod(subscription.id) as unknown as Stripe.Invoice;
      const expected = (meter: string, units: number) => Number(graduatedAmount(meterTiers(team, meter)!, BigInt(units)));
      expect(invoice.lines.data.map((line) => [line.description, line.amount]), `exports ${exports}, calls ${calls}`).to.deep.equal([
        ['1 × team', 9900],
        [`${calls} × api_calls`, expected('api_calls', calls)],
        [`${exports} × exports`, expected('exports', exports)],
      ]);
      await adapter.cancel({ subscriptionId: subscription.id });
    }
  });
});
