import { expect } from 'chai';
import { sql, type Database } from '@framework/data';
import { addMonth, assertReconciled, BillingError, createBilling, LocalStripe, localStripeMeteredPriceIds, localStripePriceIds, pushPendingUsage, stripeProvider, type BillingProvider } from '../../src/index.js';
import { PLANS } from '../support/plans.js';
import { startBillingDatabase } from '../support/webhook-app.js';

/**
 * A closed period's invoice against the provider's invoice for the same period: the local fake charges the same
 * plans (from the config), so the totals are equal when the usage reached the provider before it closed the period,
 * and a coded mismatch when it did not.
 */
describe('reconcileInvoice: our closed period vs the provider\'s invoice', function () {
  this.timeout(240_000);
  const start = new Date('2026-11-01T00:00:00Z');
  const end = addMonth(start);
  const afterEnd = new Date(end.getTime() + 2 * 3600_000);
  let now = start;
  let database: Awaited<ReturnType<typeof startBillingDatabase>>;
  let db: Database;
  let fake: LocalStripe;
  let provider: BillingProvider;
  before(async () => {
    database = await startBillingDatabase();
    db = database.db;
    fake = await LocalStripe.start({ plans: PLANS, now: () => now });
    // The plan's licensed price and its metered prices: the subscription carries an item per metered price, which is
    // what the provider charges the pushed usage on.
    provider = stripeProvider({ apiKey: fake.apiKey, webhookSecret: fake.webhookSecret, apiUrl: fake.url, prices: localStripePriceIds(PLANS), meteredPrices: localStripeMeteredPriceIds(PLANS), maxNetworkRetries: 0 });
  });
  after(async () => {
    await fake?.stop();
    await database?.stop();
  });

  it('matches when both sides billed the same plan, seats and usage; reports a coded difference when not', async () => {
    const billing = createBilling({ plans: PLANS, db, clock: () => afterEnd });
    const subscriptions: Record<string, string> = {};
    for (const tenant of ['acme', 'globex']) {
      now = start;
      const customer = await provider.createCustomer({ tenantId: tenant });
      const subscription = await provider.createSubscription({ customerId: customer.id, tenantId: tenant, plan: 'pro', seats: 5 });
      subscriptions[tenant] = subscription.id;
      expect([subscription.currentPeriodStart, subscription.currentPeriodEnd]).to.deep.equal([start, end]);
      await db.transaction((tx) =>
        billing.applySubscriptionChange(tx, { tenantId: tenant, planId: 'pro', status: 'active', seats: 5, periodStart: start, periodEnd: end, trialEnd: null, providerCustomerId: customer.id, providerSubscriptionId: subscription.id, version: 1, effectiveAt: start }),
      );
      await billing.track(db, { tenant, meter: 'api_calls', quantity: 10_500, idempotencyKey: `${tenant}-1`, occurredAt: new Date('2026-11-15T00:00:00Z') });
    }
    expect(await billing.reconcile('acme', start, provider)).to.deep.equal({ status: 'not_closed', tenantId: 'acme', periodStart: start });

    // pro: 2900 flat + 2 seats past the 3 included at 500 + 500 calls past 10000 at 0.1 = 3950.
    const ours = await billing.closePeriod('acme', { start, end });
    await billing.closePeriod('globex', { start, end });
    expect(ours.total).to.equal(3950);
    expect(await billing.reconcile('acme', start, provider)).to.deep.include({ status: 'no_provider_invoice', ours: 3950 });

    // The provider closes globex's period before its usage was pushed: its invoice lacks the overage.
    now = afterEnd;
    fake.closePeriod(subscriptions['globex']!);
    expect(await pushPendingUsage(db, provider)).to.deep.equal({ pushed: 2, skipped: 0 });
    const theirs = fake.closePeriod(subscriptions['acme']!);

    const matched = await billing.reconcile('acme', start, provider);
    expect(matched).to.deep.include({ status: 'matched', ours: 3950, theirs: 3950, difference: 0, providerInvoiceId: theirs.id });
    expect((await billing.invoice('acme', start))!.providerInvoiceId).to.equal(theirs.id);
    expect(assertReconciled(matched)).to.equal(matched);

    const mismatch = await billing.reconcile('globex', start, provider);
    expect(mismatch).to.deep.include({ status: 'mismatch', code: 'FW_ERR_BILLING_INVOICE_MISMATCH', ours: 3950, theirs: 3900, difference: -50 });
    expect(mismatch.message).to.contain('total 3950 here, 3900 at the provider (difference -50)');
    expect(mismatch.lines!.theirs).to.deep.include({ description: '0 × api_calls', amount: 0 });
    expect((await billing.invoice('globex', start))!.providerInvoiceId).to.equal(null);
    expect(() => assertReconciled(mismatch)).to.throw(BillingError).with.property('code', 'FW_ERR_BILLING_INVOICE_MISMATCH');
  });

  it('usage on graduated tiers with flat amounts (team: exports and api_calls items) reconciles; a subscription without its metered items is a coded mismatch', async () => {
    const billing = createBilling({ plans: PLANS, db, clock: () => afterEnd });
    const licensedOnly = stripeProvider({ apiKey: fake.apiKey, webhookSecret: fake.webhookSecret, apiUrl: fake.url, prices: localStripePriceIds(PLANS), maxNetworkRetries: 0 });
    const subscriptions: Record<string, string> = {};
    for (const [tenant, adapter] of [['hooli', provider], ['umbrella', licensedOnly]] as const) {
      now = start;
      const customer = await adapter.createCustomer({ tenantId: tenant });
      const subscription = await adapter.createSubscription({ customerId: customer.id, tenantId: tenant, plan: 'team', seats: 2 });
      subscriptions[tenant] = subscription.id;
      await db.transaction((tx) =>
        billing.applySubscriptionChange(tx, { tenantId: tenant, planId: 'team', status: 'active', seats: 2, periodStart: start, periodEnd: end, trialEnd: null, providerCustomerId: customer.id, providerSubscriptionId: subscription.id, version: 1, effectiveAt: start }),
      );
      await billing.track(db, { tenant, meter: 'exports', quantity: 250, idempotencyKey: `${tenant}-e`, occurredAt: new Date('2026-11-10T00:00:00Z') });
      await billing.track(db, { tenant, meter: 'api_calls', quantity: 123_457, idempotencyKey: `${tenant}-c`, occurredAt: new Date('2026-11-20T00:00:00Z') });
    }
    // team: 9900 + exports (10 at 0, 90 at 25, 150 at 12.5 plus 100 flat: 4225) + 23457 calls past 100000 at 0.05 (1173) = 15298.
    expect((await billing.closePeriod('hooli', { start, end })).total).to.equal(15_298);
    expect((await billing.closePeriod('umbrella', { start, end })).total).to.equal(15_298);
    now = afterEnd;
    expect(await pushPendingUsage(db, provider)).to.deep.include({ pushed: 4 });
    const theirs = fake.closePeriod(subscriptions['hooli']!);
    expect(await billing.reconcile('hooli', start, provider)).to.deep.include({ status: 'matched', ours: 15_298, theirs: 15_298, providerInvoiceId: theirs.id });
    // As on Stripe: usage reaches an invoice only through a metered item; a subscription with the licensed item only
    // is charged the plan alone, and the difference is reported.
    fake.closePeriod(subscriptions['umbrella']!);
    expect(await billing.reconcile('umbrella', start, provider)).to.deep.include({ status: 'mismatch', ours: 15_298, theirs: 9900, difference: -5398 });
  });

  it('a credit granted with the provider is on both invoices: the credited period reconciles with no mismatch', async () => {
    const billing = createBilling({ plans: PLANS, db, clock: () => afterEnd });
    now = start;
    const customer = await provider.createCustomer({ tenantId: 'initech' });
    const subscription = await provider.createSubscription({ customerId: customer.id, tenantId: 'initech', plan: 'pro', seats: 5 });
    await db.transaction((tx) =>
      billing.applySubscriptionChange(tx, { tenantId: 'initech', planId: 'pro', status: 'active', seats: 5, periodStart: start, periodEnd: end, trialEnd: null, providerCustomerId: customer.id, providerSubscriptionId: subscription.id, version: 1, effectiveAt: start }),
    );
    // A refund of 12.50, recorded here and at the provider in one transaction; a retried provider call counts once.
    const granted = await db.transaction((tx) => billing.grantCredit(tx, 'initech', 1250, 'Outage on Nov 3', { provider }));
    expect(granted.providerCreditId).to.match(/^cbtxn_/);
    const again = await provider.creditCustomer!({ customerId: customer.id, tenantId: 'initech', creditId: granted.id, amountCents: 1250, currency: 'usd', reason: 'Outage on Nov 3' });
    expect(again.id).to.equal(granted.providerCreditId);

    // pro: 2900 + 2 × 500 = 3900, less the credit: 2650 due on both sides.
    const ours = await billing.closePeriod('initech', { start, end });
    expect(ours.lines.filter((l) => l.kind === 'credit').map((l) => l.amount)).to.deep.equal([-1250]);
    expect(ours.total).to.equal(2650);
    now = afterEnd;
    const theirs = fake.closePeriod(subscription.id);
    expect([theirs['total'], theirs['amount_due'], theirs['starting_balance'], theirs['ending_balance']]).to.deep.equal([3900, 2650, -1250, 0]);
    const result = await billing.reconcile('initech', start, provider);
    expect(result).to.deep.include({ status: 'matched', ours: 2650, theirs: 2650, difference: 0, providerInvoiceId: theirs.id });

    // Without the provider the credit is ours only: the provider's next invoice does not use it, a coded mismatch.
    const next = addMonth(end);
    await db.transaction((tx) => billing.grantCredit(tx, 'initech', 100, 'Goodwill'));
    const closer = createBilling({ plans: PLANS, db, clock: () => new Date(next.getTime() + 2 * 3600_000) });
    expect((await closer.closePeriod('initech', { start: end, end: next })).total).to.equal(3800);
    now = new Date(next.getTime() + 2 * 3600_000);
    fake.closePeriod(subscription.id);
    expect(await closer.reconcile('initech', end, provider)).to.deep.include({ status: 'mismatch', ours: 3800, theirs: 3900, difference: 100 });
  });

  it('refuses to grant a credit with a provider for a tenant without a customer there (FW_ERR_BILLING_NO_CUSTOMER), and grants nothing', async () => {
    const billing = createBilling({ plans: PLANS, db, clock: () => afterEnd });
    const refused = await db.transaction((tx) => billing.grantCredit(tx, 'nobody', 500, 'Refund', { provider })).then(() => undefined, (error: unknown) => error);
    expect(refused).to.be.instanceOf(BillingError).with.property('code', 'FW_ERR_BILLING_NO_CUSTOMER');
    expect(await db.many(sql`SELECT id FROM fw_billing_credits WHERE tenant_id = 'nobody'`)).to.deep.equal([]);
  });
});
