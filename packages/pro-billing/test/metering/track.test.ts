import { expect } from 'chai';
import fc from 'fast-check';
import { createBilling, runWithTenantForTests } from '../support/billing.js';
import { useBillingDatabase } from '../support/database.js';
import { ENGINES } from '../support/engines.js';
import { PLANS } from '../support/plans.js';

const november = { start: new Date('2026-11-01T00:00:00Z'), end: new Date('2026-12-01T00:00:00Z') };
const inNovember = new Date('2026-11-15T12:00:00Z');

for (const engine of ENGINES) {
  describe(`billing.track on ${engine.name}`, () => {
    const database = useBillingDatabase(engine);
    beforeEach(() => database.fresh());

    it('counts each distinct event once, whatever the duplicates, retries, rollbacks and concurrency (property)', async function () {
      this.timeout(600_000);
      const billing = createBilling({ plans: PLANS, db: database.db() });
      const event = fc.record({ quantity: fc.integer({ min: 0, max: 1000 }), attempts: fc.array(fc.boolean(), { minLength: 1, maxLength: 3 }) });
      await fc.assert(
        fc.asyncProperty(fc.array(event, { minLength: 1, maxLength: 12 }), fc.integer({ min: 1, max: 4 }), async (events, parallel) => {
          await database.fresh();
          // every attempt of every event (true: its transaction commits, false: the business write fails after
          // tracking, so the transaction rolls back), interleaved, `parallel` at a time
          const attempts = events.flatMap((e, i) => e.attempts.map((commits, n) => ({ key: `evt-${i}`, quantity: e.quantity, commits, order: (n * 7919 + i * 104729) % 1009 })));
          attempts.sort((a, b) => a.order - b.order);
          for (let i = 0; i < attempts.length; i += parallel) {
            await Promise.all(
              attempts.slice(i, i + parallel).map((a) =>
                database
                  .db()
                  .transaction(async (tx) => {
                    await billing.track(tx, { tenant: 'acme', meter: 'api_calls', quantity: a.quantity, idempotencyKey: a.key, occurredAt: inNovember });
                    if (!a.commits) throw new Error('business write failed');
                  })
                  .catch((error: unknown) => {
                    if ((error as Error).message !== 'business write failed') throw error;
                  }),
              ),
            );
          }
          const distinct = events.reduce((sum, e) => sum + (e.attempts.includes(true) ? e.quantity : 0), 0);
          expect(await billing.usage('acme', 'api_calls', november)).to.equal(distinct);
          // the period close counts the same total
          const invoice = await billing.closePeriod('acme', november, { now: new Date('2026-12-02T00:00:00Z') });
          expect(invoice.lines.filter((l) => l.meter === 'api_calls').reduce((s, l) => s + l.quantity, 0)).to.equal(distinct);
        }),
        { numRuns: engine.name === 'PGlite' ? 15 : 25 },
      );
    });

    it('says whether an event was recorded, and keeps tenants and meters apart', async () => {
      const billing = createBilling({ plans: PLANS, db: database.db() });
      const db = database.db();
      expect(await billing.track(db, { tenant: 'acme', meter: 'api_calls', quantity: 5, idempotencyKey: 'req-1', occurredAt: inNovember })).to.deep.equal({ recorded: true });
      expect(await billing.track(db, { tenant: 'acme', meter: 'api_calls', quantity: 5, idempotencyKey: 'req-1', occurredAt: inNovember })).to.deep.equal({ recorded: false });
      // the same key for another tenant or another meter is another event
      expect(await billing.track(db, { tenant: 'globex', meter: 'api_calls', quantity: 7, idempotencyKey: 'req-1', occurredAt: inNovember })).to.deep.equal({ recorded: true });
      expect(await billing.track(db, { tenant: 'acme', meter: 'exports', quantity: 1, idempotencyKey: 'req-1', occurredAt: inNovember })).to.deep.equal({ recorded: true });
      expect(await billing.usage('acme', 'api_calls', november)).to.equal(5);
      expect(await billing.usage('globex', 'api_calls', november)).to.equal(7);
      // the tenant defaults to the current one
      await runWithTenantForTests('initech', () => billing.track(db, { meter: 'api_calls', quantity: 2, idempotencyKey: 'k', occurredAt: inNovember }));
      expect(await billing.usage('initech', 'api_calls', november)).to.equal(2);
    });

    it('refuses an event it cannot store, naming the problem and the fix', async () => {
      const billing = createBilling({ plans: PLANS, db: database.db() });
      const db = database.db();
      const refused = (input: Parameters<typeof billing.track>[1]) => billing.track(db, input).then(() => expect.fail('expected a refusal'), (e: Error) => e);
      const noTenant = await refused({ meter: 'api_calls', quantity: 1, idempotencyKey: 'a' });
      expect(noTenant).to.include({ code: 'FW_ERR_BILLING_INVALID_USAGE' });
      expect(noTenant.message).to.contain('without a tenant');
      expect((await refused({ tenant: 'acme', meter: 'api_call', quantity: 1, idempotencyKey: 'a' })).message).to.contain('"api_call" is not priced or limited by any plan');
      expect((await refused({ tenant: 'acme', meter: 'api_calls', quantity: 1.5, idempotencyKey: 'a' })).message).to.contain('whole number');
      expect((await refused({ tenant: 'acme', meter: 'api_calls', quantity: 1, idempotencyKey: '' })).message).to.contain('idempotencyKey');
    });
  });
}
