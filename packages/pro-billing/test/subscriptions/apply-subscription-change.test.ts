import { expect } from 'chai';
import fc from 'fast-check';
import { applySubscriptionChange, readPlanHistory, readSubscription, type SubscriptionChange } from '../../src/index.js';
import { useBillingDatabase } from '../support/database.js';
import { ENGINES } from '../support/engines.js';

const periodStart = new Date('2026-11-01T00:00:00Z');
const periodEnd = new Date('2026-12-01T00:00:00Z');

function change(version: number, planId: string, seats: number, tenantId = 'acme'): SubscriptionChange {
  return {
    tenantId,
    planId,
    status: 'active',
    seats,
    periodStart,
    periodEnd,
    trialEnd: null,
    providerCustomerId: 'cus_1',
    providerSubscriptionId: 'sub_1',
    version,
    effectiveAt: new Date(periodStart.getTime() + version * 1000),
  };
}

for (const engine of ENGINES) {
  describe(`applySubscriptionChange on ${engine.name}`, () => {
    const billing = useBillingDatabase(engine);
    beforeEach(() => billing.fresh());

    it('converges on the highest version whatever order (and how often) the changes arrive in', async () => {
      const plans = ['free', 'pro', 'team'];
      await fc.assert(
        fc.asyncProperty(fc.uniqueArray(fc.integer({ min: 1, max: 10_000 }), { minLength: 1, maxLength: 6 }), fc.infiniteStream(fc.nat()), async (versions, picks) => {
          await billing.fresh();
          const changes = versions.map((v, i) => change(v, plans[i % plans.length]!, 1 + (v % 7)));
          // every change delivered once or twice, in a random order
          const deliveries = [...changes, ...changes.filter((_, i) => i % 2 === 0)];
          const order = deliveries.map((c) => ({ c, k: picks.next().value as number })).sort((a, b) => a.k - b.k).map((x) => x.c);
          for (const c of order) await billing.db().transaction((tx) => applySubscriptionChange(tx, c));
          const latest = changes.reduce((a, b) => (b.version > a.version ? b : a));
          const snapshot = await readSubscription(billing.db(), 'acme');
          expect(snapshot).to.include({ planId: latest.planId, seats: latest.seats, version: latest.version, status: 'active' });
          const history = await readPlanHistory(billing.db(), 'acme', new Date(0), periodEnd);
          expect(history.map((h) => h.version)).to.deep.equal([...versions].sort((a, b) => a - b));
        }),
        { numRuns: 15 },
      );
    });

    it('tells an applied change from a stale one and a replay', async () => {
      const db = billing.db();
      expect(await db.transaction((tx) => applySubscriptionChange(tx, change(5, 'pro', 3)))).to.deep.equal({ applied: true, recorded: true });
      expect(await db.transaction((tx) => applySubscriptionChange(tx, change(5, 'pro', 3)))).to.deep.equal({ applied: false, recorded: false });
      expect(await db.transaction((tx) => applySubscriptionChange(tx, change(4, 'free', 1)))).to.deep.equal({ applied: false, recorded: true });
      expect(await readSubscription(db, 'acme')).to.include({ planId: 'pro', seats: 3, version: 5 });
      // another tenant is another row
      await db.transaction((tx) => applySubscriptionChange(tx, change(1, 'free', 1, 'globex')));
      expect(await readSubscription(db, 'globex')).to.include({ planId: 'free', version: 1 });
      expect(await readSubscription(db, 'initech')).to.equal(undefined);
    });

    it('writes nothing when the caller rolls back', async () => {
      const db = billing.db();
      await db
        .transaction(async (tx) => {
          await applySubscriptionChange(tx, change(1, 'pro', 2));
          throw new Error('business write failed');
        })
        .catch(() => undefined);
      expect(await readSubscription(db, 'acme')).to.equal(undefined);
    });

    it('refuses a change it cannot store, naming the field and the fix', async () => {
      const db = billing.db();
      const plans = { plans: { free: { currency: 'usd' } }, defaultPlan: 'free' };
      const unknownPlan = await applySubscriptionChange(db, change(1, 'gold', 1), { plans }).catch((e: unknown) => e);
      expect(unknownPlan).to.include({ code: 'FW_ERR_BILLING_INVALID_CHANGE' });
      expect((unknownPlan as Error).message).to.contain('"gold"').and.contain('declared plan');
      const badSeats = await applySubscriptionChange(db, { ...change(1, 'free', 1), seats: 1.5 }).catch((e: unknown) => e);
      expect((badSeats as Error).message).to.contain('Seats');
      const badVersion = await applySubscriptionChange(db, { ...change(1, 'free', 1), version: -1 }).catch((e: unknown) => e);
      expect((badVersion as Error).message).to.contain('Version');
      const badStatus = await applySubscriptionChange(db, { ...change(1, 'free', 1), status: 'gone' as never }).catch((e: unknown) => e);
      expect((badStatus as Error).message).to.contain('"gone"');
    });
  });
}
