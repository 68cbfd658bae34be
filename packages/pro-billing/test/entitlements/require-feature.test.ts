import { tenantMiddleware } from '@framework-pro/tenancy';
import { createLogger, handler, setRootLogger, type Middleware, type HandlerContext } from '@framework/runtime';
import { expect } from 'chai';
import { createBilling } from '../support/billing.js';
import { useBillingDatabase } from '../support/database.js';
import { ENGINES } from '../support/engines.js';
import { httpEvent } from '../support/events.js';
import { PLANS } from '../support/plans.js';

const now = new Date('2026-11-15T12:00:00Z');
const period = { start: new Date('2026-11-01T00:00:00Z'), end: new Date('2026-12-01T00:00:00Z') };

/** A route behind the tenancy middleware (tenant from a header) and `guard`. */
function route(guard: Middleware<HandlerContext>) {
  return handler(async (_body, ctx) => ({ tenant: ctx.tenant?.id }), { middleware: [tenantMiddleware({ from: ['header'] }), guard] });
}

async function call(main: ReturnType<typeof route>, tenant?: string, headers: Record<string, string> = {}) {
  const result = await main(httpEvent({ method: 'POST', path: '/members', headers: { ...(tenant ? { 'x-tenant-id': tenant } : {}), ...headers } }));
  return { status: result.statusCode, body: JSON.parse(String(result.body)) as { error?: { code: string; message: string; details?: Record<string, unknown> } } };
}

for (const engine of ENGINES) {
  describe(`entitlements on ${engine.name}`, () => {
    const database = useBillingDatabase(engine);
    beforeEach(async () => {
      setRootLogger(createLogger({ sink: () => undefined }));
      await database.fresh();
    });
    afterEach(() => setRootLogger(undefined));

    const subscribe = (billing: ReturnType<typeof createBilling>, tenant: string, planId: string, version: number, seats = 1) =>
      database.db().transaction((tx) =>
        billing.applySubscriptionChange(tx, { tenantId: tenant, planId, status: 'active', seats, periodStart: period.start, periodEnd: period.end, trialEnd: null, providerCustomerId: null, providerSubscriptionId: null, version, effectiveAt: period.start }),
      );

    it('answers 402 FEATURE_LIMIT_EXCEEDED naming the feature, the limit and the plan to upgrade to; the upgrade lets it through', async () => {
      const billing = createBilling({ plans: PLANS, db: database.db(), clock: () => now });
      // the seat count the invitation would reach comes from the request
      const invite = route(billing.requireFeature('seats', (ctx) => Number(ctx.headers['x-seats'] ?? 1)));
      expect((await call(invite, 'acme', { 'x-seats': '2' })).status).to.equal(201);
      const over = await call(invite, 'acme', { 'x-seats': '3' });
      expect(over.status).to.equal(402);
      expect(over.body.error?.code).to.equal('FEATURE_LIMIT_EXCEEDED');
      expect(over.body.error?.message).to.contain('"free" plan allows 2 "seats"').and.contain('Upgrade to "pro"');
      expect(over.body.error?.details).to.deep.equal({ feature: 'seats', plan: 'free', limit: 2, requested: 3, upgradeTo: 'pro' });
      // the app upgrades the tenant: this process sees it at once (the cached plan is dropped)
      await subscribe(billing, 'acme', 'pro', 1, 3);
      expect((await call(invite, 'acme', { 'x-seats': '3' })).status).to.equal(201);
      // past every plan's limit: 403, nothing to upgrade to
      const none = await call(invite, 'acme', { 'x-seats': '51' });
      expect(none.status).to.equal(403);
      expect(none.body.error?.code).to.equal('FEATURE_LIMIT_REACHED');
      expect(none.body.error?.details).to.include({ feature: 'seats', plan: 'pro', limit: 10, requested: 51, upgradeTo: null });
    });

    it('turns features on and off by plan, and counts a hard metered allowance from this period\'s usage', async () => {
      const billing = createBilling({ plans: PLANS, db: database.db(), clock: () => now });
      const sso = route(billing.requireFeature('sso'));
      const off = await call(sso, 'acme');
      expect(off.status).to.equal(402);
      expect(off.body.error?.message).to.contain('"free" plan does not include "sso"').and.contain('Upgrade to "team"');
      await billing.track(database.db(), { tenant: 'acme', meter: 'api_calls', quantity: 99, idempotencyKey: 'batch-1', occurredAt: now });
      expect(await billing.check('acme', 'api_calls', 1)).to.include({ allowed: true, used: 99, limit: 100 });
      const decision = await billing.check('acme', 'api_calls', 2);
      expect(decision).to.include({ allowed: false, used: 99, limit: 100, upgradeTo: 'pro' });
      // on pro the overage is charged, so nothing is refused
      await subscribe(billing, 'acme', 'pro', 1);
      expect(await billing.check('acme', 'api_calls', 1_000_000)).to.include({ allowed: true, limit: null, plan: 'pro' });
    });

    it('gives the default plan to a tenant without a subscription or whose subscription ended', async () => {
      const billing = createBilling({ plans: PLANS, db: database.db(), clock: () => now });
      expect(await billing.planOf('nobody')).to.deep.include({ planId: 'free' });
      await subscribe(billing, 'acme', 'pro', 1);
      expect((await billing.planOf('acme')).planId).to.equal('pro');
      await database.db().transaction((tx) =>
        billing.applySubscriptionChange(tx, { tenantId: 'acme', planId: 'pro', status: 'canceled', seats: 1, periodStart: period.start, periodEnd: period.end, trialEnd: null, providerCustomerId: null, providerSubscriptionId: null, version: 2 }),
      );
      expect((await billing.planOf('acme')).planId).to.equal('free');
    });

    it('keeps a plan for cacheSeconds: a change made by another process is seen when it expires, with no read before', async () => {
      let clock = now;
      const reader = createBilling({ plans: PLANS, db: database.db(), clock: () => clock, cacheSeconds: 5 });
      const writer = createBilling({ plans: PLANS, db: database.db(), clock: () => clock });
      expect((await reader.check('acme', 'seats', 5)).allowed).to.equal(false);
      await subscribe(writer, 'acme', 'pro', 1);
      expect((await reader.check('acme', 'seats', 5)).allowed).to.equal(false);
      clock = new Date(now.getTime() + 5_001);
      expect((await reader.check('acme', 'seats', 5)).allowed).to.equal(true);
    });

    it('answers 400 TENANT_REQUIRED without a tenant, and refuses an undeclared feature when the middleware is made', async () => {
      const billing = createBilling({ plans: PLANS, db: database.db(), clock: () => now });
      const main = handler(async () => ({ ok: true }), { middleware: [billing.requireFeature('seats', 1)] });
      const result = await main(httpEvent({ method: 'POST', path: '/members' }));
      expect(result.statusCode).to.equal(400);
      expect(JSON.parse(String(result.body)).error.code).to.equal('TENANT_REQUIRED');
      expect(() => billing.requireFeature('seat' as 'seats')).to.throw(/No plan declares the feature "seat"/).with.property('code', 'FW_ERR_BILLING_UNKNOWN_FEATURE');
    });
  });
}
