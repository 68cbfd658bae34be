import { Database, sql } from '@framework/data';
import { createLogger, currentTenant, setMetricSink, setRootLogger, taskHandler } from '@framework/runtime';
import { expect } from 'chai';
import pg from 'pg';
import {
  activeTenants,
  appRoleSql,
  disableRowLevelSecurity,
  enableRowLevelSecurity,
  forEachTenant,
  perTenant,
  runWithTenant,
  tenantTable,
  TENANTS_TABLE_MIGRATION,
  TenancyUsageError,
} from '../../src/index.js';
import { ENGINES, useEngine } from '../support/engines.js';

describe('crons fanned out per tenant', () => {
  const logged: Record<string, unknown>[] = [];
  const metrics: Record<string, unknown>[] = [];
  beforeEach(() => {
    logged.length = 0;
    metrics.length = 0;
    setRootLogger(createLogger({ sink: (line) => void logged.push(JSON.parse(line) as Record<string, unknown>) }));
    setMetricSink((line) => void metrics.push(JSON.parse(line) as Record<string, unknown>));
  });
  afterEach(() => {
    setRootLogger(undefined);
    setMetricSink(undefined);
  });

  it('runs the cron once per tenant with ctx.tenant and currentTenant() set; a failing tenant is logged, counted and does not stop the others', async () => {
    const seen: string[] = [];
    const cron = taskHandler(
      perTenant(
        async (_event, ctx) => {
          seen.push(`${ctx.tenant.id}/${currentTenant()?.id ?? 'none'}`);
          if (ctx.tenant.id === 'globex') throw new Error('globex export failed');
        },
        { tenants: async () => ['acme', 'globex', 'initech'], name: 'nightly-export' },
      ),
    );
    const result = await cron({ source: 'aws.scheduler' });
    expect(seen).to.deep.equal(['acme/acme', 'globex/globex', 'initech/initech']);
    expect(result).to.deep.equal({ succeeded: ['acme', 'initech'], failed: [{ tenant: 'globex', error: { name: 'Error', message: 'globex export failed' } }] });
    // The failure's log line and metric carry the tenant; nothing else failed.
    const errors = logged.filter((line) => line['level'] === 'error');
    expect(errors).to.have.length(1);
    expect(errors[0]).to.include({ message: 'per-tenant job failed for a tenant', tenant: 'globex' });
    expect(metrics).to.have.length(1);
    expect(metrics[0]).to.include({ TenantJobFailures: 1, job: 'nightly-export', tenant: 'globex' });
  });

  it('runs up to `concurrency` tenants at once, and each run keeps its own tenant across awaits', async () => {
    let running = 0;
    let most = 0;
    const mismatches: string[] = [];
    const result = await forEachTenant(
      async (tenant) => {
        running++;
        most = Math.max(most, running);
        await new Promise((resolve) => setImmediate(resolve));
        if (currentTenant()?.id !== tenant.id) mismatches.push(tenant.id);
        running--;
      },
      { tenants: ['t1', 't2', 't3', 't4', 't5'], concurrency: 2 },
    );
    expect(result.succeeded).to.have.members(['t1', 't2', 't3', 't4', 't5']);
    expect(most).to.equal(2);
    expect(mismatches).to.deep.equal([]);
  });

  it('lists the tenants outside any tenant, skips an invalid id as a failure, and refuses unusable options', async () => {
    const listedAs: (string | undefined)[] = [];
    const result = await runWithTenant({ id: 'caller' }, () =>
      forEachTenant(() => undefined, {
        tenants: () => {
          listedAs.push(currentTenant()?.id);
          return ['acme', 'bad id'];
        },
      }),
    );
    expect(listedAs).to.deep.equal([undefined]);
    expect(result.succeeded).to.deep.equal(['acme']);
    expect(result.failed.map((f) => f.tenant)).to.deep.equal(['bad id']);
    const bad = await forEachTenant(() => undefined, { tenants: ['a'], concurrency: 0 }).catch((e: unknown) => e);
    expect(bad).to.be.instanceOf(TenancyUsageError);
  });

  for (const engine of ENGINES) {
    describe(`with row-level security on ${engine.name}`, () => {
      after(async () => {
        disableRowLevelSecurity();
        await db?.end();
        await owner?.end();
      });
      const server = useEngine(engine);
      let owner: pg.Pool;
      let db: Database;
      before(async () => {
        owner = new pg.Pool({ ...server().connection, max: 1 });
        await owner.query(TENANTS_TABLE_MIGRATION.split('-- down')[0]!);
        await owner.query(`INSERT INTO tenants (id, name, status) VALUES ('acme', 'Acme', 'active'), ('globex', 'Globex', 'active'), ('gone', 'Gone', 'disabled')`);
        await owner.query('CREATE TABLE reports (id serial PRIMARY KEY, rows_seen int NOT NULL)');
        await owner.query(tenantTable('reports').up);
        await owner.query('CREATE TABLE notes (id serial PRIMARY KEY, body text NOT NULL)');
        await owner.query(tenantTable('notes').up);
        await owner.query(appRoleSql());
        await owner.query(`INSERT INTO notes (body, tenant_id) VALUES ('a1', 'acme'), ('a2', 'acme'), ('g1', 'globex'), ('x1', 'gone')`);
        db = new Database({ connection: server().connection, logger: { warn: () => undefined }, maxConnections: 2 });
        enableRowLevelSecurity();
      });

      it("runs for each active tenant of the tenants table; each run's statements see and write only its tenant's rows", async () => {
        const result = await forEachTenant(
          async () => {
            const { n } = await db.one<{ n: number }>(sql`SELECT count(*)::int AS n FROM notes`);
            await db.query(sql`INSERT INTO reports (rows_seen) VALUES (${n})`);
          },
          { tenants: activeTenants(db), concurrency: 2 },
        );
        expect(result).to.deep.equal({ succeeded: ['acme', 'globex'], failed: [] });
        const reports = await owner.query<{ tenant_id: string; rows_seen: number }>('SELECT tenant_id, rows_seen FROM reports ORDER BY tenant_id');
        expect(reports.rows).to.deep.equal([
          { tenant_id: 'acme', rows_seen: 2 },
          { tenant_id: 'globex', rows_seen: 1 },
        ]);
      });
    });
  }
});
