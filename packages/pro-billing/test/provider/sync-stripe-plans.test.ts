import { expect } from 'chai';
import { definePlans, LocalStripe, stripeLookupKey, stripePlanPrices, stripeProvider, syncStripePlans, type BillingPlans } from '../../src/index.js';
import { PLANS } from '../support/plans.js';

/** The fake's own catalog over HTTP, as Stripe's API lists it. */
async function fakeGet(fake: LocalStripe, path: string): Promise<{ data: Record<string, unknown>[] } & Record<string, unknown>> {
  const response = await fetch(`${fake.url}${path}`, { headers: { authorization: `Bearer ${fake.apiKey}` } });
  expect(response.status, path).to.equal(200);
  return (await response.json()) as { data: Record<string, unknown>[] } & Record<string, unknown>;
}

/**
 * `syncStripePlans` against the local fake over HTTP (the `stripe` SDK's real calls): the config's plans become Stripe
 * products, graduated prices matched by lookup key and billing meters; a re-run changes nothing; a changed price is a
 * new price that takes the lookup key over (Stripe's prices are immutable).
 */
describe('syncStripePlans: the config\'s plans as Stripe products and prices', function () {
  this.timeout(120_000);
  let fake: LocalStripe;
  beforeEach(async () => {
    fake = await LocalStripe.start({ plans: PLANS });
  });
  afterEach(async () => {
    await fake?.stop();
  });
  const connection = () => ({ apiKey: fake.apiKey, apiUrl: fake.url, maxNetworkRetries: 0 });

  // free's api_calls allowance has no overage: nothing to charge, no metered price.
  it('describes each plan as one licensed graduated price (flat in the first tier, seats past the included) and one metered price per charged meter', () => {
    const specs = stripePlanPrices(PLANS);
    expect(specs.map((s) => s.lookupKey)).to.deep.equal(['fw_free', 'fw_pro', 'fw_pro__api_calls', 'fw_team', 'fw_team__api_calls', 'fw_team__exports']);
    const pro = specs.find((s) => s.lookupKey === 'fw_pro')!;
    expect(pro.tiers).to.deep.equal([{ up_to: 3, flat_amount: 2900, unit_amount_decimal: '0' }, { up_to: null, flat_amount: 0, unit_amount_decimal: '500' }]);
    expect(specs.find((s) => s.lookupKey === 'fw_pro__api_calls')!.tiers).to.deep.equal([{ up_to: 10_000, flat_amount: 0, unit_amount_decimal: '0' }, { up_to: null, flat_amount: 0, unit_amount_decimal: '0.1' }]);
    expect(specs.find((s) => s.lookupKey === 'fw_free')!.tiers).to.deep.equal([{ up_to: null, flat_amount: 0, unit_amount_decimal: '0' }]);
  });

  it('creates products, meters and prices once; a second run finds them all unchanged', async () => {
    const first = await syncStripePlans(PLANS, connection());
    expect(first.products.created).to.deep.equal(['fw_plan_free', 'fw_plan_pro', 'fw_plan_team']);
    expect(first.created).to.have.length(6);
    expect(first.unchanged).to.deep.equal([]);
    expect(Object.keys(first.meters).sort()).to.deep.equal(['api_calls', 'exports']);
    expect(Object.keys(first.prices)).to.deep.equal(['free', 'pro', 'team']);
    expect(first.meteredPrices['team']).to.have.keys('api_calls', 'exports');

    const second = await syncStripePlans(PLANS, connection());
    expect(second.created).to.deep.equal([]);
    expect(second.unchanged).to.have.length(6);
    expect(second.products).to.deep.equal({ created: [], updated: [] });
    expect(second.prices).to.deep.equal(first.prices);
    expect(second.meteredPrices).to.deep.equal(first.meteredPrices);
    expect((await fakeGet(fake, '/v1/prices')).data).to.have.length(6);
    expect((await fakeGet(fake, '/v1/billing/meters')).data).to.have.length(2);

    const pro = (await fakeGet(fake, `/v1/prices?lookup_keys[0]=${stripeLookupKey('pro')}`)).data;
    expect(pro).to.have.length(1);
    expect(pro[0]).to.deep.include({ id: first.prices['pro'], product: 'fw_plan_pro', currency: 'usd', billing_scheme: 'tiered', tiers_mode: 'graduated', lookup_key: 'fw_pro' });
    const metered = (await fakeGet(fake, `/v1/prices/${first.meteredPrices['pro']!['api_calls']!}`)) as Record<string, unknown>;
    expect(metered['recurring']).to.deep.include({ usage_type: 'metered', meter: first.meters['api_calls'] });
  });

  it('a changed price creates a new price and moves the lookup key to it; unchanged plans keep theirs; a renamed plan updates its product', async () => {
    const first = await syncStripePlans(PLANS, connection());
    const raised: BillingPlans = definePlans({
      ...PLANS,
      plans: { ...PLANS.plans, pro: { ...PLANS.plans['pro']!, name: 'Pro 2027', prices: [{ kind: 'flat', amount: 3900 }, { kind: 'per_seat', unitAmount: 500, includedSeats: 3 }] } },
    });
    const second = await syncStripePlans(raised, connection());
    expect(second.created).to.deep.equal(['fw_pro']);
    expect(second.products.updated).to.deep.equal(['fw_plan_pro']);
    expect(second.prices['pro']).not.to.equal(first.prices['pro']);
    expect(second.prices['free']).to.equal(first.prices['free']);
    // The key moved: the list by key gives the new price only; the old one still exists (subscriptions keep it).
    const byKey = (await fakeGet(fake, '/v1/prices?lookup_keys[0]=fw_pro')).data;
    expect(byKey.map((p) => p['id'])).to.deep.equal([second.prices['pro']]);
    const old = (await fakeGet(fake, `/v1/prices/${first.prices['pro']!}`)) as Record<string, unknown>;
    expect(old).to.include({ lookup_key: null, active: true });
    expect(((await fakeGet(fake, '/v1/products/fw_plan_pro')) as Record<string, unknown>)['name']).to.equal('Pro 2027');
  });

  it('backs metered prices with an active meter only: a deactivated meter of the same event name is replaced', async () => {
    const bare = await LocalStripe.start({ prices: { price_x: { unitAmountCents: 0 } } });
    try {
      const post = (path: string, form: Record<string, string>) => fetch(`${bare.url}${path}`, { method: 'POST', headers: { authorization: `Bearer ${bare.apiKey}`, 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(form).toString() }).then((r) => r.json() as Promise<{ id: string; status: string }>);
      const old = await post('/v1/billing/meters', { display_name: 'exports', event_name: 'exports', 'default_aggregation[formula]': 'sum' });
      expect((await post(`/v1/billing/meters/${old.id}/deactivate`, {})).status).to.equal('inactive');
      const synced = await syncStripePlans(PLANS, { apiKey: bare.apiKey, apiUrl: bare.url, maxNetworkRetries: 0 });
      expect(synced.meters['exports']).to.match(/^mtr_/).and.not.equal(old.id);
    } finally {
      await bare.stop();
    }
  });

  it('the synced prices drive the adapter: a subscription on the synced pro price is invoiced as the plan', async () => {
    const synced = await syncStripePlans(PLANS, connection());
    const provider = stripeProvider({ apiKey: fake.apiKey, webhookSecret: fake.webhookSecret, apiUrl: fake.url, prices: synced.prices, maxNetworkRetries: 0 });
    const customer = await provider.createCustomer({ tenantId: 'acme' });
    const subscription = await provider.createSubscription({ customerId: customer.id, tenantId: 'acme', plan: 'pro', seats: 5 });
    expect(subscription.plan).to.equal('pro');
    // 2900 + 2 seats past the 3 included × 500.
    expect(fake.closePeriod(subscription.id)['total']).to.equal(3900);
  });
});
