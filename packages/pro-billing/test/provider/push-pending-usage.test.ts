import { expect } from 'chai';
import { sql, type Database } from '@framework/data';
import { applySubscriptionChange, LocalStripe, pushPendingUsage, usageIdempotencyKey } from '../../src/index.js';
import { adapterFor, FAKE_PRICES } from '../support/local-billing.js';
import { startBillingDatabase } from '../support/webhook-app.js';

describe('pushPendingUsage: closed periods to the provider as meter events', function () {
  this.timeout(240_000);
  let database: Awaited<ReturnType<typeof startBillingDatabase>>;
  let db: Database;
  let fake: LocalStripe;
  before(async () => {
    database = await startBillingDatabase();
    db = database.db;
    fake = await LocalStripe.start({ prices: FAKE_PRICES });
  });
  after(async () => {
    await fake?.stop();
    await database?.stop();
  });

  it('pushes each aggregate once (a re-run after a crash counts once at the provider) and waits for tenants without a customer', async () => {
    const provider = adapterFor(fake);
    const customer = await provider.createCustomer({ tenantId: 'acme' });
    const start = new Date('2026-03-01T00:00:00Z');
    const end = new Date('2026-04-01T00:00:00Z');
    await applySubscriptionChange(db, { tenantId: 'acme', planId: 'pro', status: 'active', seats: 1, periodStart: start, periodEnd: end, trialEnd: null, providerCustomerId: customer.id, providerSubscriptionId: 'sub_x', version: 1 });
    for (const tenant of ['acme', 'globex']) {
      await db.query(sql`INSERT INTO fw_billing_usage_aggregates (tenant_id, meter, period_start, period_end, quantity, invoice_id) VALUES (${tenant}, 'api_calls', ${start}, ${end}, 1234, gen_random_uuid())`);
    }
    expect(await pushPendingUsage(db, provider)).to.deep.equal({ pushed: 1, skipped: 1 });
    // A crash after the provider took it, before the mark: the next run pushes it again, the provider counts it once.
    await db.query(sql`UPDATE fw_billing_usage_aggregates SET pushed_at = NULL WHERE tenant_id = 'acme'`);
    expect(await pushPendingUsage(db, provider)).to.deep.equal({ pushed: 1, skipped: 1 });
    expect(fake.meterEvents.map((event) => [event['identifier'], (event['payload'] as { value: string }).value, event['timestamp']])).to.deep.equal([
      [usageIdempotencyKey('acme', 'api_calls', start, 0), '1234', end.getTime() / 1000 - 1],
    ]);
    expect(await pushPendingUsage(db, provider)).to.deep.equal({ pushed: 0, skipped: 1 });
  });
});
