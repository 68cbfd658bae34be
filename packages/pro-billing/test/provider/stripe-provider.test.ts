import { expect } from 'chai';
import Stripe from 'stripe';
import { BillingError, BillingWebhookError, LocalStripe, usageIdempotencyKey, type BillingProvider } from '../../src/index.js';
import { adapterFor, FAKE_PRICES, startReceiver } from '../support/local-billing.js';

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected a rejection');
}

describe('stripeProvider against the local fake (real HTTP)', () => {
  let fake: LocalStripe;
  let provider: BillingProvider;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let now: Date;

  beforeEach(async () => {
    now = new Date('2026-03-01T00:00:00Z');
    receiver = await startReceiver();
    fake = await LocalStripe.start({ prices: FAKE_PRICES, meterPrices: { api_calls: { unitAmountDecimal: '0.1', includedUnits: 100 } }, webhookUrl: receiver.url, now: () => now });
    provider = adapterFor(fake);
  });

  afterEach(async () => {
    await fake.stop();
    await receiver.stop();
  });

  it('creates a customer and a subscription carrying the tenant, and reads them back translated', async () => {
    const customer = await provider.createCustomer({ tenantId: 'acme', email: 'billing@acme.test' });
    expect(customer.id).to.match(/^cus_/);
    const subscription = await provider.createSubscription({ customerId: customer.id, tenantId: 'acme', plan: 'pro', seats: 3 });
    expect(subscription).to.include({ customerId: customer.id, tenantId: 'acme', plan: 'pro', status: 'active', seats: 3, cancelAtPeriodEnd: false });
    expect(subscription.currentPeriodStart.toISOString()).to.equal('2026-03-01T00:00:00.000Z');
    expect(subscription.currentPeriodEnd.toISOString()).to.equal('2026-04-01T00:00:00.000Z');
    expect(await provider.getSubscription(subscription.id)).to.deep.equal(subscription);
  });

  it('changes the plan mid-period with proration in whole cents, and cancels at period end', async () => {
    const customer = await provider.createCustomer({ tenantId: 'acme' });
    const started = await provider.createSubscription({ customerId: customer.id, tenantId: 'acme', plan: 'free' });
    now = new Date('2026-03-11T00:00:00Z'); // 21 of 31 days left
    const changed = await provider.changePlan({ subscriptionId: started.id, plan: 'pro', seats: 2 });
    expect(changed).to.include({ plan: 'pro', seats: 2 });
    const canceling = await provider.cancel({ subscriptionId: started.id, atPeriodEnd: true });
    expect(canceling).to.include({ status: 'active', cancelAtPeriodEnd: true });

    const invoice = fake.closePeriod(started.id) as unknown as Stripe.Invoice;
    const amounts = invoice.lines.data.map((line) => line.amount);
    // Credit of the unused free time (0), 21/31 of 2 × 1000 for the rest of the period, then the period's plan line.
    expect(amounts).to.deep.equal([0, Math.round((2000 * 21) / 31), 2000, 0]);
    expect(invoice.total).to.equal(amounts.reduce((a, b) => a + b, 0));
    expect(fake.subscription(started.id)['status']).to.equal('canceled');
  });

  it('cancels at once', async () => {
    const customer = await provider.createCustomer({ tenantId: 'acme' });
    const subscription = await provider.createSubscription({ customerId: customer.id, tenantId: 'acme', plan: 'pro' });
    expect(await provider.cancel({ subscriptionId: subscription.id })).to.include({ status: 'canceled' });
  });

  it('opens checkout and portal sessions; paying the checkout sends signed webhooks the adapter verifies', async () => {
    const customer = await provider.createCustomer({ tenantId: 'acme' });
    const checkout = await provider.createCheckoutSession({ customerId: customer.id, tenantId: 'acme', plan: 'pro', seats: 4, successUrl: 'http://localhost:3000/ok', cancelUrl: 'http://localhost:3000/no' });
    expect(checkout.url).to.equal(`${fake.url}/checkout/${checkout.id}`);
    const portal = await provider.createPortalSession({ customerId: customer.id, returnUrl: 'http://localhost:3000/' });
    expect(portal.url).to.match(/^http:\/\/127\.0\.0\.1:\d+\//);

    // The customer pays on the hosted page (a form post, as a browser sends it).
    const paid = await fetch(checkout.url, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'pay=yes', redirect: 'manual' });
    expect(paid.status).to.equal(303);
    expect(paid.headers.get('location')).to.equal('http://localhost:3000/ok');
    await fake.idle();

    const events = await Promise.all(receiver.received.map((request) => provider.parseWebhook(request.body, request.headers)));
    expect(events.map((event) => event.providerType)).to.deep.equal(['customer.created', 'customer.subscription.created', 'checkout.session.completed']);
    expect(events.map((event) => event.type)).to.deep.equal(['ignored', 'subscription.updated', 'checkout.completed']);
    expect(events[1]!.subscription).to.include({ tenantId: 'acme', plan: 'pro', seats: 4, status: 'active' });
    expect(events[2]).to.include({ tenantId: 'acme', customerId: customer.id, checkoutSessionId: checkout.id });
    expect(fake.deliveries.every((delivery) => delivery.delivered && delivery.attempts === 1)).to.equal(true);
  });

  it('pushes usage as meter events counted once per key, however often it is pushed', async () => {
    const customer = await provider.createCustomer({ tenantId: 'acme' });
    const subscription = await provider.createSubscription({ customerId: customer.id, tenantId: 'acme', plan: 'pro' });
    const periodStart = new Date('2026-03-01T00:00:00Z');
    const push = { tenantId: 'acme', customerId: customer.id, meter: 'api_calls', periodStart, timestamp: new Date('2026-03-05T00:00:00Z') };
    expect(await provider.pushUsage([{ ...push, sequence: 0, quantity: 300 }])).to.deep.equal({ pushed: 1 });
    // A retried close pushes the same sequence again; the next sequence is a late delta.
    await provider.pushUsage([{ ...push, sequence: 0, quantity: 300 }]);
    await provider.pushUsage([{ ...push, sequence: 1, quantity: 20 }]);
    expect(fake.meterEvents.map((event) => event['identifier'])).to.deep.equal([usageIdempotencyKey('acme', 'api_calls', periodStart, 0), usageIdempotencyKey('acme', 'api_calls', periodStart, 1)]);

    const invoice = fake.closePeriod(subscription.id) as unknown as Stripe.Invoice;
    // 320 calls, 100 included, 0.1 cent each: 22 cents, beside the plan's 1000.
    expect(invoice.lines.data.map((line) => line.amount)).to.deep.equal([1000, 22]);
  });

  it('refuses usage it cannot push, before calling Stripe', async () => {
    const push = { tenantId: 'acme', customerId: 'cus_x', meter: 'api_calls', periodStart: new Date(), timestamp: new Date(), sequence: 0 };
    const error = await rejection(provider.pushUsage([{ ...push, quantity: 1.5 }]));
    expect(error).to.be.instanceOf(BillingError).and.have.property('code', 'FW_ERR_BILLING_USAGE');
    expect(fake.meterEvents).to.have.length(0);
  });

  it('names the plan it has no price for', async () => {
    const error = await rejection(provider.createSubscription({ customerId: 'cus_x', tenantId: 'acme', plan: 'enterprise' }));
    expect(error).to.be.instanceOf(BillingError).and.have.property('code', 'FW_ERR_BILLING_UNKNOWN_PLAN');
    expect((error as Error).message).to.contain('"enterprise"').and.contain('free, pro');
  });

  it('turns a refused call into FW_ERR_BILLING_PROVIDER_FAILED with Stripe\'s error as the cause', async () => {
    const wrongKey = adapterFor(fake, { apiKey: 'sk_test_wrong' });
    const error = await rejection(wrongKey.createCustomer({ tenantId: 'acme' }));
    expect(error).to.be.instanceOf(BillingError).and.have.property('code', 'FW_ERR_BILLING_PROVIDER_FAILED');
    expect((error as Error).cause).to.be.instanceOf(Stripe.errors.StripeAuthenticationError);
    const missing = await rejection(provider.changePlan({ subscriptionId: 'sub_nope', plan: 'pro' }));
    expect((missing as Error).message).to.contain("No such subscription: 'sub_nope'");
  });

  it('checks its options when created', () => {
    expect(() => adapterFor(fake, { apiKey: '' })).to.throw(BillingError, /apiKey is empty/);
    expect(() => adapterFor(fake, { webhookSecret: '' })).to.throw(BillingError, /webhookSecret is empty/);
    expect(() => adapterFor(fake, { prices: {} })).to.throw(BillingError, /prices names no plan/);
    expect(() => adapterFor(fake, { apiUrl: 'http://127.0.0.1:1/v1' })).to.throw(BillingError, /apiUrl/);
  });

  describe('parseWebhook', () => {
    const stripe = new Stripe('sk_test_signer');
    const payload = JSON.stringify({ id: 'evt_1', object: 'event', created: 1, type: 'invoice.created', data: { object: { object: 'invoice' } } });
    const code = async (body: string, headers: Record<string, string | undefined>) => {
      const error = await rejection(provider.parseWebhook(body, headers));
      expect(error).to.be.instanceOf(BillingWebhookError);
      return { code: (error as BillingWebhookError).code, status: (error as BillingWebhookError).status };
    };

    it('accepts a correctly signed event (types it does not apply are ignored)', async () => {
      const header = stripe.webhooks.generateTestHeaderString({ payload, secret: fake.webhookSecret });
      expect(await provider.parseWebhook(Buffer.from(payload), { 'Stripe-Signature': header })).to.include({ id: 'evt_1', type: 'ignored', provider: 'stripe' });
    });

    it('refuses a forged signature (401), an altered body (401), no signature (400) and a stale one (400)', async () => {
      const forged = stripe.webhooks.generateTestHeaderString({ payload, secret: 'whsec_attacker' });
      expect(await code(payload, { 'stripe-signature': forged })).to.deep.equal({ code: 'BILLING_WEBHOOK_SIGNATURE_INVALID', status: 401 });
      const signed = stripe.webhooks.generateTestHeaderString({ payload, secret: fake.webhookSecret });
      expect(await code(payload.replace('invoice.created', 'invoice.paid'), { 'stripe-signature': signed })).to.deep.equal({ code: 'BILLING_WEBHOOK_SIGNATURE_INVALID', status: 401 });
      expect(await code(payload, {})).to.deep.equal({ code: 'BILLING_WEBHOOK_SIGNATURE_MISSING', status: 400 });
      expect(await code(payload, { 'stripe-signature': 'garbage' })).to.deep.equal({ code: 'BILLING_WEBHOOK_SIGNATURE_MISSING', status: 400 });
      const old = stripe.webhooks.generateTestHeaderString({ payload, secret: fake.webhookSecret, timestamp: Math.floor(Date.now() / 1000) - 3600 });
      expect(await code(payload, { 'stripe-signature': old })).to.deep.equal({ code: 'BILLING_WEBHOOK_TIMESTAMP_STALE', status: 400 });
    });

    it('refuses a signed body that is not an event (400)', async () => {
      const notJson = 'hello';
      const header = stripe.webhooks.generateTestHeaderString({ payload: notJson, secret: fake.webhookSecret });
      expect(await code(notJson, { 'stripe-signature': header })).to.deep.equal({ code: 'BILLING_WEBHOOK_INVALID_PAYLOAD', status: 400 });
      const noType = JSON.stringify({ id: 'evt_2' });
      const header2 = stripe.webhooks.generateTestHeaderString({ payload: noType, secret: fake.webhookSecret });
      expect(await code(noType, { 'stripe-signature': header2 })).to.deep.equal({ code: 'BILLING_WEBHOOK_INVALID_PAYLOAD', status: 400 });
    });
  });
});
