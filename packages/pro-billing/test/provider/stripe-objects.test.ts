import { expect } from 'chai';
import Stripe from 'stripe';
import { LocalStripe, stripeProvider } from '../../src/index.js';
import { stripeFixture } from '../support/stripe-fixtures.js';

// Stripe's documented sample objects, signed as Stripe signs them, through the adapter's parseWebhook.
describe('stripeProvider reads Stripe\'s documented shapes', () => {
  const secret = 'whsec_fixture';
  const provider = stripeProvider({ apiKey: 'sk_test_fixture', webhookSecret: secret, prices: { pro: 'price_1MowQULkdIwHu7ixraBm864M' } });
  const signer = new Stripe('sk_test_signer');
  const parse = (event: unknown) => {
    const payload = JSON.stringify(event);
    return provider.parseWebhook(payload, { 'stripe-signature': signer.webhooks.generateTestHeaderString({ payload, secret }) });
  };
  const event = (type: string, object: unknown) => ({ ...stripeFixture('event-subscription-updated'), type, data: { object } });

  it('a subscription event: tenant, plan (by price), seats and the period of its item', async () => {
    const parsed = await parse(stripeFixture('event-subscription-updated'));
    expect(parsed).to.include({ id: 'evt_1NG8Du2eZvKYlo2CUI79vXWy', type: 'subscription.updated', tenantId: 'acme', customerId: 'cus_Na6dX7aXxi11N4' });
    expect(parsed.occurredAt.toISOString()).to.equal(new Date(1686089970 * 1000).toISOString());
    expect(parsed.subscription).to.deep.equal({
      id: 'sub_1MowQVLkdIwHu7ixeRlqHVzs',
      customerId: 'cus_Na6dX7aXxi11N4',
      tenantId: 'acme',
      plan: 'pro',
      status: 'active',
      seats: 3,
      currentPeriodStart: new Date(1679609767 * 1000),
      currentPeriodEnd: new Date(1682288167 * 1000),
      cancelAtPeriodEnd: false,
    });
    expect((await parse(event('customer.subscription.deleted', stripeFixture('subscription')))).type).to.equal('subscription.deleted');
  });

  it('a subscription with metered items: plan, seats and period from the licensed item, whatever the items\' order', async () => {
    const sample = stripeFixture<{ items: { data: Record<string, unknown>[] } }>('subscription');
    const licensed = sample.items.data[0]!;
    // A metered item as Stripe returns it (API 2025-03-31+: a price backed by a billing meter, no quantity), listed first.
    const metered = {
      ...licensed,
      id: 'si_metered',
      price: { ...(licensed['price'] as object), id: 'price_metered_api_calls', unit_amount: null, unit_amount_decimal: null, billing_scheme: 'tiered', recurring: { interval: 'month', interval_count: 1, meter: 'mtr_61Q', usage_type: 'metered' } },
      quantity: undefined,
    };
    for (const data of [[metered, licensed], [licensed, metered]]) {
      const parsed = await parse(event('customer.subscription.updated', { ...sample, items: { ...sample.items, data } }));
      expect(parsed.subscription).to.include({ plan: 'pro', seats: 3 });
      expect(parsed.subscription!.currentPeriodEnd).to.deep.equal(new Date(1682288167 * 1000));
    }
  });

  it('an invoice event: the tenant from the subscription details, amounts in cents, lines', async () => {
    const parsed = await parse(event('invoice.paid', stripeFixture('invoice')));
    expect(parsed.type).to.equal('invoice.paid');
    expect(parsed.invoice).to.include({ id: 'in_1MtHbELkdIwHu7ixl4OzzPMv', tenantId: 'acme', subscriptionId: 'sub_1MowQVLkdIwHu7ixeRlqHVzs', totalCents: 3550, amountPaidCents: 3550, currency: 'usd', number: '9545A614-0001' });
    expect(parsed.invoice!.lines.map((line) => line.amountCents)).to.deep.equal([3000, 550]);
  });

  it('a completed checkout session', async () => {
    const parsed = await parse(event('checkout.session.completed', stripeFixture('checkout-session')));
    expect(parsed).to.include({ type: 'checkout.completed', tenantId: 'acme', checkoutSessionId: stripeFixture<{ id: string }>('checkout-session').id });
  });

  it("the local fake's objects carry every field of the samples", async () => {
    const fake = await LocalStripe.start({ prices: { price_pro: { unitAmountCents: 1000 } }, autoDeliver: false });
    try {
      const fakeProvider = stripeProvider({ apiKey: fake.apiKey, webhookSecret: fake.webhookSecret, prices: { pro: 'price_pro' }, apiUrl: fake.url });
      const customer = await fakeProvider.createCustomer({ tenantId: 'acme' });
      const session = await fakeProvider.createCheckoutSession({ customerId: customer.id, tenantId: 'acme', plan: 'pro', successUrl: 'http://localhost/ok', cancelUrl: 'http://localhost/no' });
      const completed = fake.completeCheckout(session.id);
      const subscriptionId = String(completed['subscription']);
      const invoice = fake.closePeriod(subscriptionId);
      const keys = (value: object) => Object.keys(value).sort();
      const missing = (sample: object, actual: object) => keys(sample).filter((key) => !keys(actual).includes(key));
      expect(missing(stripeFixture('subscription'), fake.subscription(subscriptionId))).to.deep.equal([]);
      const item = (fake.subscription(subscriptionId)['items'] as { data: object[] }).data[0]!;
      expect(missing(stripeFixture<{ items: { data: object[] } }>('subscription').items.data[0]!, item)).to.deep.equal([]);
      expect(missing(stripeFixture('invoice'), invoice)).to.deep.equal([]);
      expect(missing(stripeFixture('checkout-session'), completed)).to.deep.equal([]);
      const updated = fake.events.find((candidate) => candidate['type'] === 'customer.subscription.updated')!;
      expect(missing(stripeFixture('event-subscription-updated'), updated)).to.deep.equal([]);
    } finally {
      await fake.stop();
    }
  });
});
