import { Database } from '@framework/data';
import { createLogger, handler, setRootLogger } from '@framework/runtime';
import { expect } from 'chai';
import pg from 'pg';
import {
  createQuotas,
  defineTiers,
  postgresRateStore,
  postgresUsageStore,
  runWithTenant,
  tenantMiddleware,
  TENANTS_TABLE_MIGRATION,
  tierFromClaim,
  tierFromTenantsTable,
  type Quotas,
} from '../../src/index.js';
import { ENGINES, useEngine } from '../support/engines.js';
import { httpEvent, userClaims } from '../support/events.js';

const tiers = defineTiers({
  free: { requestsPerMinute: 3, seats: 2, storageBytes: 1_000, counters: { projects: 1 } },
  pro: { requestsPerMinute: 10, seats: 5, storageBytes: 100_000, counters: { projects: 10 } },
});

/** A route behind the tenancy middleware and the quota middleware. */
function route(quotas: Quotas) {
  return handler(async (_body, ctx) => ({ tenant: ctx.tenant?.id }), { middleware: [tenantMiddleware(), quotas.middleware()] });
}

async function get(main: ReturnType<typeof route>, tenant: string, tier?: string) {
  const result = await main(httpEvent({ claims: { ...userClaims(tenant), ...(tier ? { 'custom:tier': tier } : {}) } }));
  return { status: result.statusCode, headers: result.headers ?? {}, body: JSON.parse(String(result.body)) as { error?: { code: string; message: string; details?: Record<string, unknown> } } };
}

async function statuses(main: ReturnType<typeof route>, tenant: string, count: number, tier?: string): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < count; i++) out.push((await get(main, tenant, tier)).status);
  return out;
}

describe('tiers and quotas', () => {
  beforeEach(() => setRootLogger(createLogger({ sink: () => undefined })));
  afterEach(() => setRootLogger(undefined));

  describe('request rates (memory store)', () => {
    it('answers 429 QUOTA_RATE_EXCEEDED with Retry-After at the tier limit, naming the quota and the fix', async () => {
      const main = route(createQuotas({ tiers }));
      expect(await statuses(main, 'acme', 3)).to.deep.equal([200, 200, 200]);
      const over = await get(main, 'acme');
      expect(over.status).to.equal(429);
      expect(Number(over.headers['retry-after'])).to.be.within(1, 60);
      expect(over.body.error?.code).to.equal('QUOTA_RATE_EXCEEDED');
      expect(over.body.error?.message).to.contain('requestsPerMinute').and.contain('"free"');
      expect(over.body.error?.details).to.include({ quota: 'requestsPerMinute', tier: 'free', limit: 3 });
    });

    it('counts per tenant: two tenants do not share a counter', async () => {
      const main = route(createQuotas({ tiers }));
      expect(await statuses(main, 'acme', 4)).to.deep.equal([200, 200, 200, 429]);
      expect(await statuses(main, 'globex', 3)).to.deep.equal([200, 200, 200]);
    });

    it("applies the tenant's tier (from a claim here)", async () => {
      const main = route(createQuotas({ tiers, tierOf: tierFromClaim() }));
      expect((await statuses(main, 'initech', 10, 'pro')).every((s) => s === 200)).to.equal(true);
      expect(await statuses(main, 'initech', 1, 'pro')).to.deep.equal([429]);
      // an undeclared tier name is the default tier
      expect(await statuses(main, 'umbrella', 4, 'platinum')).to.deep.equal([200, 200, 200, 429]);
    });

    it('lets requests through when the counter store fails (the cache never takes the app down)', async () => {
      const broken = createQuotas({ tiers, rates: { limiter: async () => Promise.reject(new Error('connection refused')) } });
      expect(await statuses(route(broken), 'acme', 5)).to.deep.equal([200, 200, 200, 200, 200]);
      // the same when the tier's source (the tenants table) fails
      const noTier = createQuotas({ tiers, tierOf: async () => Promise.reject(new Error('database unavailable')) });
      expect(await statuses(route(noTier), 'acme', 5)).to.deep.equal([200, 200, 200, 200, 200]);
    });
  });

  describe('hard limits (memory store)', () => {
    it('consumes seats up to the limit, then 402 QUOTA_EXCEEDED naming the tier that allows more; release gives back', async () => {
      const quotas = createQuotas({ tiers });
      await runWithTenant({ id: 'acme' }, async () => {
        expect(await quotas.consume('seats')).to.deep.equal({ used: 1, limit: 2 });
        expect(await quotas.consume('seats')).to.deep.equal({ used: 2, limit: 2 });
        const error = await quotas.consume('seats').catch((e: unknown) => e);
        expect(error).to.include({ status: 402, code: 'QUOTA_EXCEEDED' });
        expect((error as Error).message).to.contain('seats').and.contain('upgrade to "pro"');
        expect(await quotas.release('seats')).to.equal(1);
        expect(await quotas.consume('seats')).to.deep.equal({ used: 2, limit: 2 });
        expect((await quotas.usage()).quotas['seats']).to.deep.equal({ used: 2, limit: 2 });
      });
      // another tenant has its own seats
      expect(await quotas.consume('seats', 1, { id: 'globex' })).to.deep.equal({ used: 1, limit: 2 });
    });

    it('answers 403 QUOTA_LIMIT_REACHED when no tier allows more, and refuses a quota no tier declares', async () => {
      const quotas = createQuotas({ tiers, tierOf: () => 'pro' });
      await quotas.consume('projects', 10, { id: 'acme' });
      const error = await quotas.consume('projects', 1, { id: 'acme' }).catch((e: unknown) => e);
      expect(error).to.include({ status: 403, code: 'QUOTA_LIMIT_REACHED' });
      const typo = await quotas.consume('project', 1, { id: 'acme' }).catch((e: unknown) => e);
      expect(typo).to.include({ code: 'FW_ERR_TENANCY_INVALID_TIERS' });
    });
  });

  it('refuses tiers that cannot work, at creation', () => {
    expect(() => defineTiers({})).to.throw(/at least one tier/);
    expect(() => defineTiers({ free: { seats: -1 } })).to.throw(/whole number/);
    expect(() => defineTiers({ free: { seats: 1.5 } })).to.throw(/whole number/);
    expect(() => defineTiers({ free: { requestsPerMinute: 0 } })).to.throw(/at least 1/);
    expect(() => defineTiers({ free: { sets: 1 } as never })).to.throw(/unknown quota "sets"/);
    expect(() => defineTiers({ free: { counters: { seats: 1 } } })).to.throw(/built-in/);
    expect(() => createQuotas({ tiers, defaultTier: 'gold' as 'free' })).to.throw(/defaultTier "gold"/);
  });

  for (const engine of ENGINES) {
    describe(`counters in PostgreSQL on ${engine.name}`, () => {
      after(async () => {
        await pool?.end();
        await db?.end();
      });
      const server = useEngine(engine);
      let pool: pg.Pool;
      let db: Database;
      before(async () => {
        pool = new pg.Pool({ ...server().connection, max: 4 });
        await pool.query(TENANTS_TABLE_MIGRATION.split('-- down')[0]!);
        await pool.query(`INSERT INTO tenants (id, name, tier) VALUES ('acme', 'Acme', 'free'), ('globex', 'Globex', 'pro')`);
        db = new Database({ connection: server().connection, logger: { warn: () => undefined }, maxConnections: 2 });
      });

      it('answers 429 at the limit per tenant, with the tier read from the tenants table', async () => {
        const main = route(createQuotas({ tiers, tierOf: tierFromTenantsTable(db), rates: postgresRateStore(pool) }));
        expect(await statuses(main, 'acme', 4)).to.deep.equal([200, 200, 200, 429]);
        // globex is on pro (10 a minute) and has its own counter
        expect((await statuses(main, 'globex', 10)).every((s) => s === 200)).to.equal(true);
        expect(await statuses(main, 'globex', 1)).to.deep.equal([429]);
      });

      it('consumes a hard quota atomically: of 10 concurrent seat requests exactly the limit succeed', async () => {
        const quotas = createQuotas({ tiers, usage: postgresUsageStore(pool) });
        const outcomes = await Promise.all(Array.from({ length: 10 }, () => quotas.consume('seats', 1, { id: 'acme' }).then(() => 'ok', (e: { code: string }) => e.code)));
        expect(outcomes.filter((o) => o === 'ok')).to.have.length(2);
        expect(outcomes.filter((o) => o === 'QUOTA_EXCEEDED')).to.have.length(8);
        expect((await quotas.usage({ id: 'acme' })).quotas['seats']).to.deep.equal({ used: 2, limit: 2 });
        expect((await quotas.usage({ id: 'globex' })).quotas['seats']).to.deep.equal({ used: 0, limit: 2 });
        await quotas.forget('acme');
        expect((await quotas.usage({ id: 'acme' })).quotas['seats']!.used).to.equal(0);
      });
    });
  }
});
