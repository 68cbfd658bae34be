import { expect } from 'chai';
import { renderInvoiceHtml, type SubscriptionChange } from '../../src/index.js';
import { createBilling } from '../support/billing.js';
import { useBillingDatabase } from '../support/database.js';
import { ENGINES } from '../support/engines.js';
import { PLANS } from '../support/plans.js';

const november = { start: new Date('2026-11-01T00:00:00Z'), end: new Date('2026-12-01T00:00:00Z') };
const december = { start: new Date('2026-12-01T00:00:00Z'), end: new Date('2027-01-01T00:00:00Z') };
const afterNovember = new Date('2026-12-01T02:00:00Z');
const afterDecember = new Date('2027-01-01T02:00:00Z');

function change(tenantId: string, planId: string, seats: number, version: number, effectiveAt: Date): SubscriptionChange {
  return { tenantId, planId, status: 'active', seats, periodStart: november.start, periodEnd: november.end, trialEnd: null, providerCustomerId: null, providerSubscriptionId: null, version, effectiveAt };
}

for (const engine of ENGINES) {
  describe(`closePeriod on ${engine.name}`, () => {
    const database = useBillingDatabase(engine);
    beforeEach(() => database.fresh());
    const billing = () => createBilling({ plans: PLANS, db: database.db(), clock: () => afterNovember });

    it('produces base, seat, usage (graduated) and credit lines whose amounts add up to the total', async () => {
      const b = billing();
      const db = database.db();
      await db.transaction((tx) => b.applySubscriptionChange(tx, change('acme', 'pro', 5, 1, november.start)));
      for (let i = 0; i < 3; i++) await b.track(db, { tenant: 'acme', meter: 'api_calls', quantity: i === 0 ? 10_000 : 3, idempotencyKey: `r${i}`, occurredAt: new Date('2026-11-20T00:00:00Z') });
      await b.grantCredit(db, 'acme', 500, 'outage on Nov 3');
      const invoice = await b.closePeriod('acme', november);
      expect(invoice.lines.map((l) => [l.kind, l.quantity, l.amount])).to.deep.equal([
        ['base', 1, 2900],
        ['seats', 2, 1000], // 5 seats, 3 included, 500 each
        ['usage', 10_006, 1], // 10000 included, 6 at 0.1 = 0.6 -> 1
        ['credit', 1, -500],
      ]);
      expect(invoice).to.include({ subtotal: 3901, credits: -500, total: 3401, currency: 'usd', planId: 'pro', number: 'acme-20261101', status: 'open' });
      expect(invoice.lines.reduce((s, l) => s + l.amount, 0)).to.equal(invoice.total);
      const aggregates = await database.pool().query('SELECT meter, quantity::int, late_quantity::int FROM fw_billing_usage_aggregates');
      expect(aggregates.rows).to.deep.equal([{ meter: 'api_calls', quantity: 10_006, late_quantity: 0 }]);
    });

    it('is idempotent: closing twice, or twice at once, gives one invoice', async () => {
      const b = billing();
      await database.db().transaction((tx) => b.applySubscriptionChange(tx, change('acme', 'pro', 1, 1, november.start)));
      const [first, second] = await Promise.all([b.closePeriod('acme', november), b.closePeriod('acme', november)]);
      const third = await b.closePeriod('acme', november);
      expect(second.id).to.equal(first.id);
      expect(third).to.deep.equal(first);
      const count = await database.pool().query("SELECT count(*)::int AS n FROM fw_billing_invoices WHERE tenant_id = 'acme'");
      expect(count.rows[0].n).to.equal(1);
    });

    it('prorates a mid-period upgrade by the second, from the history, whatever order the changes arrived in', async () => {
      const b = billing();
      const mid = new Date('2026-11-16T00:00:00Z');
      // the upgrade's event arrives before the subscription's creation
      await database.db().transaction((tx) => b.applySubscriptionChange(tx, change('globex', 'team', 1, 2, mid)));
      await database.db().transaction((tx) => b.applySubscriptionChange(tx, change('globex', 'pro', 1, 1, november.start)));
      const invoice = await b.closePeriod('globex', november);
      expect(invoice.lines.map((l) => [l.kind, l.planId, l.amount])).to.deep.equal([['proration', 'pro', 1450], ['proration', 'team', 4950]]);
      expect(invoice).to.include({ total: 6400, planId: 'team' });
    });

    it('counts late usage in its period within the grace window, and in the next period (with a note) after the close', async () => {
      const b = billing();
      const db = database.db();
      const lastMinute = new Date('2026-11-30T23:59:00Z');
      await db.transaction((tx) => b.applySubscriptionChange(tx, change('acme', 'pro', 1, 1, november.start)));
      // arrives after the period's end, inside the grace window: closing now is refused, the event counts in November
      await b.track(db, { tenant: 'acme', meter: 'api_calls', quantity: 4, idempotencyKey: 'late-1', occurredAt: lastMinute });
      const early = await b.closePeriod('acme', november, { now: new Date('2026-12-01T00:30:00Z') }).catch((e: unknown) => e);
      expect(early).to.include({ code: 'FW_ERR_BILLING_PERIOD_OPEN' });
      expect((early as Error).message).to.contain('2026-12-01T01:00:00.000Z');
      const inNovember = (await b.closePeriod('acme', november)).lines.find((l) => l.kind === 'usage')!;
      expect(inNovember.quantity).to.equal(4);
      expect(inNovember.note).not.to.contain('before this period');
      // arrives after November's close: counted in December, said so
      await b.track(db, { tenant: 'acme', meter: 'api_calls', quantity: 6, idempotencyKey: 'late-2', occurredAt: lastMinute });
      await b.track(db, { tenant: 'acme', meter: 'api_calls', quantity: 10, idempotencyKey: 'dec-1', occurredAt: new Date('2026-12-05T00:00:00Z') });
      const dec = await b.closePeriod('acme', december, { now: afterDecember });
      const usage = dec.lines.find((l) => l.kind === 'usage')!;
      expect(usage.quantity).to.equal(16);
      expect(usage.note).to.contain('includes 6 units that happened before this period');
      // a retried November event (same key) counts nowhere again
      expect(await b.track(db, { tenant: 'acme', meter: 'api_calls', quantity: 4, idempotencyKey: 'late-1', occurredAt: lastMinute })).to.deep.equal({ recorded: false });
    });

    it('refuses a period whose end is not after its start', async () => {
      const error = await billing().closePeriod('acme', { start: november.end, end: november.start }).catch((e: unknown) => e);
      expect(error).to.include({ code: 'FW_ERR_BILLING_INVALID_PERIOD' });
    });

    it('renders the invoice as HTML with every value escaped', async () => {
      const b = billing();
      await b.grantCredit(database.db(), 'acme', 100, '<script>alert(1)</script>');
      await database.db().transaction((tx) => b.applySubscriptionChange(tx, change('acme', 'pro', 1, 1, november.start)));
      const html = renderInvoiceHtml(await b.closePeriod('acme', november), { customer: 'Acme & "Sons"' });
      expect(html).to.contain('&lt;script&gt;alert(1)&lt;/script&gt;').and.not.contain('<script>');
      expect(html).to.contain('Acme &amp; &quot;Sons&quot;');
      expect(html).to.contain('29.00 USD').and.contain('-1.00 USD').and.contain('28.00 USD');
    });
  });
}
