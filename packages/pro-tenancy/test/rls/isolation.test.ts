import { Database, sql } from '@framework/data';
import { createLogger, setRootLogger } from '@framework/runtime';
import { expect } from 'chai';
import fc from 'fast-check';
import pg from 'pg';
import {
  appRoleSql,
  asAllTenants,
  assertTenancy,
  checkTenancy,
  disableRowLevelSecurity,
  enableRowLevelSecurity,
  runWithTenant,
  tenantDatabase,
  tenantTable,
  TenancyCheckError,
  TenancyUsageError,
} from '../../src/index.js';
import { ENGINES, useEngine } from '../support/engines.js';

const quiet = { warn: () => undefined };

interface Task {
  id: number;
  title: string;
  tenant_id: string;
}

for (const engine of ENGINES) {
  describe(`row-level security on ${engine.name}`, () => {
    // Registered before the engine's own hook, so the pools close before the database is dropped.
    after(async () => {
      disableRowLevelSecurity();
      await db?.end();
      await owner?.end();
    });
    const server = useEngine(engine);
    // The migrations' user (the owner of the tables; a superuser on both engines here): outside the seam entirely.
    let owner: pg.Pool;
    // What requests use: ONE pooled connection, so every tenant's statements reuse the same session.
    let db: Database;

    before(async () => {
      owner = new pg.Pool({ ...server().connection, max: 1 });
      await owner.query('CREATE TABLE tasks (id serial PRIMARY KEY, title text NOT NULL)');
      await owner.query(tenantTable('tasks').up);
      await owner.query(appRoleSql());
      db = new Database({ connection: server().connection, logger: quiet, maxConnections: 1 });
      enableRowLevelSecurity();
    });
    beforeEach(async () => {
      await owner.query('DELETE FROM tasks');
    });

    const insert = (title: string) => db.one<Task>(sql`INSERT INTO tasks (title) VALUES (${title}) RETURNING *`);
    const list = () => db.many<Task>(sql`SELECT * FROM tasks ORDER BY id`);

    it('passes the check once the migration and the role are in', async () => {
      expect(await checkTenancy(db)).to.deep.equal([]);
    });

    it('shows each tenant only its rows, and no tenant none', async () => {
      await runWithTenant({ id: 'acme' }, async () => {
        await insert('a1');
        await insert('a2');
      });
      await runWithTenant({ id: 'globex' }, () => insert('g1'));
      expect((await runWithTenant({ id: 'acme' }, list)).map((t) => [t.title, t.tenant_id])).to.deep.equal([['a1', 'acme'], ['a2', 'acme']]);
      expect((await runWithTenant({ id: 'globex' }, list)).map((t) => t.title)).to.deep.equal(['g1']);
      // Outside any tenant the statements still run as the app role: forgetting the tenant hides rows.
      expect(await list()).to.deep.equal([]);
      // The owner sees all three: they are there.
      expect((await owner.query('SELECT count(*)::int AS n FROM tasks')).rows[0].n).to.equal(3);
    });

    it('runs statements as the app role, not the owner', async () => {
      const who = await runWithTenant({ id: 'acme' }, () => db.one<{ user: string }>(sql`SELECT current_user AS user`));
      expect(who.user).to.equal('fw_app');
    });

    it("refuses to update, delete or write another tenant's rows", async () => {
      const g = await runWithTenant({ id: 'globex' }, () => insert('g1'));
      await runWithTenant({ id: 'acme' }, async () => {
        expect((await db.query(sql`UPDATE tasks SET title = 'x' WHERE id = ${g.id}`)).rowCount).to.equal(0);
        expect((await db.query(sql`DELETE FROM tasks WHERE id = ${g.id}`)).rowCount).to.equal(0);
        const error = await db.query(sql`INSERT INTO tasks (title, tenant_id) VALUES ('sneaky', 'globex')`).catch((e: unknown) => e);
        expect(error).to.be.instanceOf(Error);
        expect(String((error as Error).message)).to.match(/row-level security/);
      });
      expect((await runWithTenant({ id: 'globex' }, list)).map((t) => t.title)).to.deep.equal(['g1']);
    });

    it('lets asAllTenants see every tenant, and logs why', async () => {
      await runWithTenant({ id: 'acme' }, () => insert('a1'));
      await runWithTenant({ id: 'globex' }, () => insert('g1'));
      const lines: string[] = [];
      setRootLogger(createLogger({ sink: (line) => lines.push(line) }));
      try {
        const all = await runWithTenant({ id: 'acme' }, () => asAllTenants('support ticket 42', list));
        expect(all.map((t) => t.tenant_id).sort()).to.deep.equal(['acme', 'globex']);
      } finally {
        setRootLogger(undefined);
      }
      const logged = lines.map((l) => JSON.parse(l) as { message: string; data?: { reason?: string; calledFromTenant?: string } });
      expect(logged.find((l) => l.message === 'cross-tenant access')?.data).to.deep.equal({ reason: 'support ticket 42', calledFromTenant: 'acme' });
      const error = await asAllTenants(' ', list).catch((e: unknown) => e);
      expect(error).to.be.instanceOf(TenancyUsageError);
    });

    it('fails the check for a table with tenant_id and no policy, or RLS not forced', async () => {
      await owner.query('CREATE TABLE notes (id int, tenant_id text)');
      await owner.query('CREATE TABLE invoices (id int, tenant_id text)');
      await owner.query('ALTER TABLE invoices ENABLE ROW LEVEL SECURITY');
      try {
        const error = await assertTenancy(db).catch((e: unknown) => e);
        expect(error).to.be.instanceOf(TenancyCheckError);
        const problems = (error as TenancyCheckError).problems.map((p) => `${p.subject}: ${p.problem}`);
        expect(problems).to.include('public.notes: has a tenant column but row-level security is not enabled.');
        expect(problems).to.include('public.notes: has no policy on app.tenant_id.');
        expect(problems).to.include('public.invoices: does not FORCE row-level security: its owner is not subject to the policy.');
        expect(problems.filter((p) => p.startsWith('public.tasks'))).to.deep.equal([]);
        expect((error as TenancyCheckError).code).to.equal('FW_ERR_TENANCY_CHECK_FAILED');
      } finally {
        await owner.query('DROP TABLE notes, invoices');
      }
    });

    it('tenantDatabase(db, tenant): the same isolation with the tenant given, not read from the async context', async () => {
      const acme = tenantDatabase(db, { id: 'acme' });
      const globex = tenantDatabase(db, { id: 'globex' });
      const a = await acme.one<Task>(sql`INSERT INTO tasks (title) VALUES ('a1') RETURNING *`);
      const g = await globex.one<Task>(sql`INSERT INTO tasks (title) VALUES ('g1') RETURNING *`);
      expect([a.tenant_id, g.tenant_id]).to.deep.equal(['acme', 'globex']);
      expect((await acme.many<Task>(sql`SELECT * FROM tasks`)).map((t) => t.title)).to.deep.equal(['a1']);
      expect((await acme.one<{ user: string }>(sql`SELECT current_user AS user`)).user).to.equal('fw_app');
      // Another tenant's rows: invisible to updates and deletes, refused to inserts, in a transaction too.
      expect((await acme.query(sql`UPDATE tasks SET title = 'x' WHERE id = ${g.id}`)).rowCount).to.equal(0);
      expect((await acme.query(sql`DELETE FROM tasks WHERE id = ${g.id}`)).rowCount).to.equal(0);
      const error = await acme.transaction((tx) => tx.query(sql`INSERT INTO tasks (title, tenant_id) VALUES ('sneaky', 'globex')`)).catch((e: unknown) => e);
      expect(String((error as Error).message)).to.match(/row-level security/);
      expect(await acme.transaction((tx) => tx.many<Task>(sql`SELECT * FROM tasks`))).to.have.length(1);
      // The explicit tenant wins over a scope it runs in (one request's frame, another's scope), and over asAllTenants.
      expect((await runWithTenant({ id: 'globex' }, () => acme.many<Task>(sql`SELECT * FROM tasks`))).map((t) => t.tenant_id)).to.deep.equal(['acme']);
      setRootLogger(createLogger({ sink: () => undefined }));
      try {
        expect((await asAllTenants('test', () => acme.many<Task>(sql`SELECT * FROM tasks`))).map((t) => t.tenant_id)).to.deep.equal(['acme']);
      } finally {
        setRootLogger(undefined);
      }
      // Row-level security off: no settings at all, as inside runWithTenant (the owner sees both rows).
      disableRowLevelSecurity();
      try {
        expect(await acme.many<Task>(sql`SELECT * FROM tasks`)).to.have.length(2);
      } finally {
        enableRowLevelSecurity();
      }
      expect(await acme.many<Task>(sql`SELECT * FROM tasks`)).to.have.length(1);
    });

    it('never leaks across tenants interleaved on one pooled connection (property)', async function () {
      this.timeout(240_000);
      const tenants = ['t0', 't1', 't2', 't3'];
      const step = fc.record({
        // null: code running outside any tenant (a forgotten runWithTenant) must see nothing at all.
        tenant: fc.constantFrom<string | null>(...tenants, null),
        op: fc.constantFrom('insert', 'list', 'transaction', 'count'),
        // true: the tenant given explicitly (tenantDatabase), inside another tenant's scope; false: runWithTenant.
        explicit: fc.boolean(),
      });
      await fc.assert(
        fc.asyncProperty(fc.array(step, { minLength: 2, maxLength: 12 }), async (steps) => {
          await owner.query('DELETE FROM tasks');
          // All started at once: the one connection serves them in whatever order the pool hands it out.
          const outcomes = await Promise.all(
            steps.map((s, i) => {
              if (s.tenant === null) return list().then((rows) => ({ tenant: '(none)', seen: rows.map((t) => t.tenant_id) }));
              const tenant = s.tenant;
              const on = s.explicit ? tenantDatabase(db, { id: tenant }) : db;
              const scope = s.explicit ? tenants[(tenants.indexOf(tenant) + 1) % tenants.length]! : tenant;
              return runWithTenant({ id: scope }, async (): Promise<string[]> => {
                if (s.op === 'insert') return [(await on.one<Task>(sql`INSERT INTO tasks (title) VALUES (${`${tenant}-${i}`}) RETURNING *`)).tenant_id];
                if (s.op === 'list') return (await on.many<Task>(sql`SELECT * FROM tasks ORDER BY id`)).map((t) => t.tenant_id);
                if (s.op === 'count') {
                  const seen = await on.one<{ tenants: string[] }>(sql`SELECT coalesce(array_agg(DISTINCT tenant_id), '{}') AS tenants FROM tasks`);
                  return seen.tenants;
                }
                return on.transaction(async (tx) => {
                  await tx.query(sql`INSERT INTO tasks (title) VALUES (${`${tenant}-tx-${i}`})`);
                  await new Promise((resolve) => setImmediate(resolve));
                  return (await tx.many<Task>(sql`SELECT * FROM tasks`)).map((t) => t.tenant_id);
                });
              }).then((seen) => ({ tenant, seen }));
            }),
          );
          for (const { tenant, seen } of outcomes) expect(seen.every((t) => t === tenant), `${tenant} saw ${seen.join(',')}`).to.equal(true);
          // And every row landed with the tenant that wrote it.
          const rows = (await owner.query<{ title: string; tenant_id: string }>('SELECT title, tenant_id FROM tasks')).rows;
          for (const row of rows) expect(row.title.startsWith(`${row.tenant_id}-`)).to.equal(true);
        }),
        { numRuns: 30 },
      );
    });
  });
}
