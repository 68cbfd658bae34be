import { expect } from 'chai';
import fc from 'fast-check';
import Stripe from 'stripe';
import { sql, type Database } from '@framework/data';
import { createLogger, setRootLogger } from '@framework/runtime';
import { LocalStripe, readSubscription, type BillingProvider, type StripeObject } from '../../src/index.js';
import { adapterFor, FAKE_PRICES } from '../support/local-billing.js';
import { notifier, serveRoute, startBillingDatabase, webhookEvent, webhookRoute } from '../support/webhook-app.js';

describe('provider webhooks applied to the snapshot', function () {
  this.timeout(240_000);
  let database: Awaited<ReturnType<typeof startBillingDatabase>>;
  let db: Database;

  before(async () => {
    setRootLogger(createLogger({ sink: () => undefined }));
    database = await startBillingDatabase();
    db = database.db;
  });
  after(async () => {
    setRootLogger(undefined);
    await database?.stop();
  });
  const reset = async () => {
    await db.query(sql`DELETE FROM fw_billing_provider_events`);
    await db.query(sql`DELETE FROM fw_notify_outbox`);
    await db.query(sql`TRUNCATE fw_billing_subscriptions, fw_billing_subscription_changes`);
  };
  const snapshot = async (database: Database) => {
    const current = await readSubscription(database, 'acme');
    return current && { plan: current.planId, status: current.status, seats: current.seats, version: current.version, periodEnd: current.periodEnd.toISOString() };
  };
  const receipts = { notifier, recipient: async (_tx: unknown, tenantId: string) => ({ email: `billing@${tenantId}.test` }) };

  /** The billing clock of the fake: each step of a story happens a few minutes after the previous one. */
  let now = new Date('2026-03-01T00:00:00Z');
  const later = () => (now = new Date(now.getTime() + 5 * 60_000));
  const startFake = () => LocalStripe.start({ prices: FAKE_PRICES, autoDeliver: false, now: () => now });

  /** A tenant's story on the fake, events held: checkout to pro (2 seats), 5 seats, a paid period, back to free. */
  async function story(fake: LocalStripe, provider: BillingProvider): Promise<readonly StripeObject[]> {
    const customer = await provider.createCustomer({ tenantId: 'acme' });
    const session = await provider.createCheckoutSession({ customerId: customer.id, tenantId: 'acme', plan: 'pro', seats: 2, successUrl: 'http://localhost/ok', cancelUrl: 'http://localhost/no' });
    later();
    const subscriptionId = String(fake.completeCheckout(session.id)['subscription']);
    later();
    await provider.changePlan({ subscriptionId, plan: 'pro', seats: 5 });
    later();
    fake.closePeriod(subscriptionId);
    later();
    await provider.changePlan({ subscriptionId, plan: 'free' });
    return [...fake.heldEvents];
  }

  it('answers forged, altered, unsigned and stale deliveries 400/401 with a code, never 500, and applies nothing', async () => {
    await reset();
    const fake = await startFake();
    try {
      const provider = adapterFor(fake);
      const route = webhookRoute(db, provider, { receipts });
      await story(fake, provider);
      const payload = JSON.stringify(fake.events.find((event) => event['type'] === 'invoice.paid'));
      const signer = new Stripe('sk_test_signer');
      const sign = (secret: string, body = payload, timestamp?: number) => signer.webhooks.generateTestHeaderString({ payload: body, secret, ...(timestamp ? { timestamp } : {}) });
      const cases = [
        { headers: { 'stripe-signature': sign('whsec_attacker') }, body: payload, status: 401, code: 'BILLING_WEBHOOK_SIGNATURE_INVALID' },
        { headers: { 'stripe-signature': sign(fake.webhookSecret) }, body: payload.replace('"paid"', '"open"'), status: 401, code: 'BILLING_WEBHOOK_SIGNATURE_INVALID' },
        { headers: {}, body: payload, status: 400, code: 'BILLING_WEBHOOK_SIGNATURE_MISSING' },
        { headers: { 'stripe-signature': sign(fake.webhookSecret, payload, Math.floor(Date.now() / 1000) - 600) }, body: payload, status: 400, code: 'BILLING_WEBHOOK_TIMESTAMP_STALE' },
      ];
      for (const c of cases) {
        const answer = await route(webhookEvent(c.body, { 'content-type': 'application/json', ...c.headers }));
        expect([answer.statusCode, JSON.parse(answer.body as string).error.code], c.code).to.deep.equal([c.status, c.code]);
      }
      expect(await db.many(sql`SELECT * FROM fw_billing_provider_events`)).to.deep.equal([]);
      expect(await db.many(sql`SELECT * FROM fw_notify_outbox`)).to.deep.equal([]);
    } finally {
      await fake.stop();
    }
  });

  it('applies a replayed event once: one snapshot change, one receipt', async () => {
    await reset();
    const fake = await startFake();
    const provider = adapterFor(fake);
    const app = await serveRoute(webhookRoute(db, provider, { receipts }));
    try {
      fake.setWebhookUrl(app.url);
      const events = await story(fake, provider);
      for (const event of events) await fake.deliver(event.id);
      const paid = events.find((event) => event['type'] === 'invoice.paid')!;
      // Stripe redelivers until it gets a 2xx, and "resend" in the dashboard sends an event again.
      for (let i = 0; i < 3; i++) expect((await fake.deliver(paid.id)).delivered).to.equal(true);
      // The route says what it did: the redelivery was recognised, not applied.
      const signer = new Stripe('sk_test_signer');
      const payload = JSON.stringify(paid);
      const again = await webhookRoute(db, provider, { receipts })(webhookEvent(payload, { 'content-type': 'application/json', 'stripe-signature': signer.webhooks.generateTestHeaderString({ payload, secret: fake.webhookSecret }) }));
      expect(JSON.parse(again.body as string)).to.deep.equal({ received: true, outcome: 'duplicate' });
      const receiptsWritten = await db.many<{ template: string; recipient: string; data: { invoiceNumber: string } }>(sql`SELECT template, recipient, data FROM fw_notify_outbox`);
      expect(receiptsWritten.map((row) => [row.template, row.recipient, row.data.invoiceNumber])).to.deep.equal([['billing-receipt', 'billing@acme.test', 'FWLOCAL-0001']]);
      const applied = await db.one<{ count: number }>(sql`SELECT count(*)::int AS count FROM fw_billing_provider_events WHERE event_id = ${paid.id}`);
      expect(applied.count).to.equal(1);
      expect(await snapshot(db)).to.include({ plan: 'free', seats: 5, status: 'active' });
    } finally {
      await fake.stop();
      await app.stop();
    }
  });

  it('converges to the same snapshot whatever the order of delivery, with duplicates (property)', async () => {
    await reset();
    const fake = await startFake();
    const provider = adapterFor(fake);
    const app = await serveRoute(webhookRoute(db, provider, { receipts }));
    try {
      fake.setWebhookUrl(app.url);
      const events = await story(fake, provider);
      for (const event of events) await fake.deliver(event.id);
      const inOrder = await snapshot(db);
      expect(inOrder).to.include({ plan: 'free', status: 'active' });
      await fc.assert(
        fc.asyncProperty(fc.shuffledSubarray(events.map((event) => event.id), { minLength: events.length }), fc.array(fc.nat(events.length - 1), { maxLength: 4 }), async (order, repeats) => {
          await reset();
          for (const id of [...order, ...repeats.map((i) => events[i]!.id)]) expect((await fake.deliver(id)).delivered).to.equal(true);
          expect(await snapshot(db)).to.deep.equal(inOrder);
          expect((await db.one<{ count: number }>(sql`SELECT count(*)::int AS count FROM fw_notify_outbox`)).count).to.equal(1);
        }),
        { numRuns: 8 },
      );
    } finally {
      await fake.stop();
      await app.stop();
    }
  });
});
