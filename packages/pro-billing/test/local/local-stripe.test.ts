import { expect } from 'chai';
import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { BillingError, LocalStripe, parseStripeForm } from '../../src/index.js';
import { adapterFor, FAKE_PRICES, startReceiver } from '../support/local-billing.js';

/** A raw request with any Host header (fetch does not let a test set it). */
function rawRequest(url: string, options: { method?: string; headers?: Record<string, string>; body?: string }): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: options.method ?? 'GET', headers: options.headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
    });
    req.on('error', reject);
    req.end(options.body);
  });
}

describe('LocalStripe (the local provider fake)', () => {
  it('parses Stripe\'s form encoding into objects without a prototype', () => {
    const form = parseStripeForm('items[0][price]=p1&items[0][quantity]=2&items[1][price]=p2&metadata[tenant_id]=acme&__proto__[x]=1&email=a%40b.test');
    expect(JSON.parse(JSON.stringify(form))).to.deep.include({ items: [{ price: 'p1', quantity: '2' }, { price: 'p2' }], metadata: { tenant_id: 'acme' }, email: 'a@b.test' });
    expect(Object.getPrototypeOf(form)).to.equal(null);
    // A key named __proto__ is a plain key: it neither sets the prototype nor reaches Object.prototype.
    expect(Object.hasOwn(form, '__proto__')).to.equal(true);
    expect(({} as { x?: unknown }).x).to.equal(undefined);
  });

  describe('over HTTP', () => {
    let fake: LocalStripe;
    beforeEach(async () => {
      fake = await LocalStripe.start({ prices: FAKE_PRICES });
    });
    afterEach(async () => {
      await fake.stop();
    });

    it('answers only the configured key, on a loopback Host, to non-browser callers', async () => {
      const auth = { authorization: `Bearer ${fake.apiKey}` };
      expect((await rawRequest(`${fake.url}/v1/customers`, { method: 'POST', headers: { authorization: 'Bearer sk_test_other' } })).status).to.equal(401);
      expect((await rawRequest(`${fake.url}/v1/customers`, { method: 'POST', headers: { ...auth, host: 'evil.example' } })).status).to.equal(403);
      expect((await rawRequest(`${fake.url}/v1/customers`, { method: 'POST', headers: { ...auth, origin: 'https://evil.example' } })).status).to.equal(403);
      const ok = await rawRequest(`${fake.url}/v1/customers`, { method: 'POST', headers: { ...auth, 'content-type': 'application/x-www-form-urlencoded' }, body: 'metadata[tenant_id]=acme' });
      expect(ok.status).to.equal(200);
      expect(JSON.parse(ok.body)).to.include({ object: 'customer' });
    });

    it("answers an unknown path with Stripe's error body naming what it covers", async () => {
      const response = await rawRequest(`${fake.url}/v1/charges`, { method: 'POST', headers: { authorization: `Bearer ${fake.apiKey}` } });
      expect(response.status).to.equal(404);
      expect(JSON.parse(response.body).error).to.include({ type: 'invalid_request_error' });
      expect(JSON.parse(response.body).error.message).to.contain('customers, subscriptions');
    });

    it('replays the first answer to a repeated Idempotency-Key', async () => {
      const headers = { authorization: `Bearer ${fake.apiKey}`, 'idempotency-key': 'k1', 'content-type': 'application/x-www-form-urlencoded' };
      const first = JSON.parse((await rawRequest(`${fake.url}/v1/customers`, { method: 'POST', headers, body: 'metadata[tenant_id]=acme' })).body);
      const second = JSON.parse((await rawRequest(`${fake.url}/v1/customers`, { method: 'POST', headers, body: 'metadata[tenant_id]=acme' })).body);
      expect(second.id).to.equal(first.id);
    });
  });

  it('retries a webhook the app did not take, then records it delivered', async () => {
    let calls = 0;
    const receiver = await startReceiver(() => (++calls === 1 ? 503 : 200));
    const fake = await LocalStripe.start({ prices: FAKE_PRICES, webhookUrl: receiver.url });
    try {
      await adapterFor(fake).createCustomer({ tenantId: 'acme' });
      await fake.idle();
      expect(fake.deliveries).to.deep.equal([{ eventId: fake.events[0]!.id, type: 'customer.created', attempts: 2, status: 200, delivered: true }]);
      expect(receiver.received).to.have.length(2);
    } finally {
      await fake.stop();
      await receiver.stop();
    }
  });

  it('keeps its objects across a restart with a state file', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'local-stripe-'));
    try {
      const stateFile = path.join(dir, 'stripe.json');
      const first = await LocalStripe.start({ prices: FAKE_PRICES, stateFile });
      const customer = await adapterFor(first).createCustomer({ tenantId: 'acme' });
      const subscription = await adapterFor(first).createSubscription({ customerId: customer.id, tenantId: 'acme', plan: 'pro' });
      await first.stop();
      const second = await LocalStripe.start({ prices: FAKE_PRICES, stateFile });
      try {
        expect(second.subscription(subscription.id)['customer']).to.equal(customer.id);
        expect(await adapterFor(second).changePlan({ subscriptionId: subscription.id, plan: 'free' })).to.include({ plan: 'free' });
      } finally {
        await second.stop();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('refuses options it cannot work with', async () => {
    let error: unknown;
    try {
      await LocalStripe.start({ prices: { p: { unitAmountCents: 9.5 } } });
    } catch (caught) {
      error = caught;
    }
    expect(error).to.be.instanceOf(BillingError).and.have.property('code', 'FW_ERR_BILLING_PROVIDER_OPTIONS');
  });
});
