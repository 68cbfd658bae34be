import { execFileSync } from 'node:child_process';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { appRoleSql, assertTenancy, disableRowLevelSecurity, tenantTable, TenancyCheckError } from '@framework-pro/tenancy';
import { Database, sql } from '@framework/data';
import { ApiError } from '@framework/runtime/client';
import { startApp, type TestApp } from '@framework/testing';
import { createClient, type Client } from '../src/client.gen.js';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));

/** The status of the ApiError a call threw (fails the test when it resolved). */
async function statusOf(call: Promise<unknown>): Promise<number> {
  const error = await call.then(
    () => expect.fail('expected the call to fail'),
    (e: unknown) => e,
  );
  expect(error).to.be.instanceOf(ApiError);
  return (error as ApiError).status;
}

function hasPostgres(): boolean {
  try {
    execFileSync('initdb', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/**
 * The acceptance of multi-tenancy: two tenants through the app's API, on PGlite and on a native PostgreSQL server. No
 * query, file, queue message or log line of one is visible to the other, and the database enforces it (row-level
 * security), not only the app's WHERE clauses.
 */
for (const engine of ['embedded', 'native'] as const) {
  describe(`tasks-api is multi-tenant (${engine === 'embedded' ? 'PGlite' : 'native PostgreSQL'})`, function () {
    this.timeout(240_000);
    let app: TestApp<Client>;

    before(async function () {
      if (engine === 'native' && !hasPostgres()) {
        console.warn('      skipped: the PostgreSQL server binaries (initdb) are not installed');
        this.skip();
      }
      app = await startApp({ root, client: createClient, engines: { databases: engine } });
    });
    after(() => app?.stop());
    beforeEach(() => app.resetData());

    // The same user id in both tenants: only the tenant tells them apart.
    const acme = () => app.as({ roles: ['admin'], sub: 'ada', tenant: 'acme' });
    const globex = () => app.as({ roles: ['admin'], sub: 'ada', tenant: 'globex' });

    it("each tenant lists, updates and deletes only its own tasks; the idempotency key of one is not the other's", async () => {
      const a = await acme().tasks.post({ title: 'acme plan' }, { idempotencyKey: 'same-key' });
      const g = await globex().tasks.post({ title: 'globex plan' }, { idempotencyKey: 'same-key' });
      expect(g.id).to.not.equal(a.id);
      expect((await acme().tasks.get()).tasks.map((t) => t.title)).to.deep.equal(['acme plan']);
      expect((await globex().tasks.get()).tasks.map((t) => t.title)).to.deep.equal(['globex plan']);
      expect(await statusOf(globex().tasks.byId(a.id).put({ title: 'taken over' }))).to.equal(404);
      expect(await statusOf(globex().tasks.byId(a.id).delete())).to.equal(404);
      expect((await acme().tasks.get()).tasks.map((t) => t.title)).to.deep.equal(['acme plan']);
      expect(await app.db().query('SELECT title, tenant_id FROM tasks ORDER BY title')).to.deep.equal([
        { title: 'acme plan', tenant_id: 'acme' },
        { title: 'globex plan', tenant_id: 'globex' },
      ]);
    });

    it('a request of a user without a tenant is refused with 400', async () => {
      expect(await statusOf(app.as({ roles: ['member'], sub: 'no-tenant-user' }).tasks.get())).to.equal(400);
    });

    it('queue messages carry the tenant: the consumer records each event as the tenant of its task', async () => {
      const a = await acme().tasks.post({ title: 'acme queued' }, { idempotencyKey: 'q-a' });
      const g = await globex().tasks.post({ title: 'globex queued' }, { idempotencyKey: 'q-g' });
      await app.drain();
      expect(await app.db().query('SELECT task_id, tenant_id FROM task_events ORDER BY tenant_id')).to.deep.equal([
        { task_id: a.id, tenant_id: 'acme' },
        { task_id: g.id, tenant_id: 'globex' },
      ]);
    });

    it("files live under the tenant's prefix, and one tenant never lists the other's", async () => {
      const a = await acme().tasks.post({ title: 'with a file' }, { idempotencyKey: 'f-a' });
      const upload = (await acme().tasks.byId(a.id).attachments.post({ fileName: 'plan.txt', contentType: 'text/plain' })) as { url: string; key: string; fields: Record<string, string> };
      expect(upload.key.startsWith('acme/')).to.equal(true);
      const form = new FormData();
      for (const [name, value] of Object.entries(upload.fields)) form.append(name, value);
      form.append('file', new Blob(['acme only'], { type: 'text/plain' }), 'plan.txt');
      const posted = await fetch(upload.url, { method: 'POST', body: form });
      expect(posted.status).to.be.within(200, 299);
      const names = (listing: unknown) => (listing as { attachments: { name: string }[] }).attachments.map((f) => f.name);
      expect(names(await acme().tasks.byId(a.id).attachments.get())).to.deep.equal(['plan.txt']);
      expect(names(await globex().tasks.byId(a.id).attachments.get())).to.deep.equal([]);
      expect(await app.storage['attachments']!.list('globex/')).to.deep.equal([]);
      expect((await app.storage['attachments']!.list('acme/')).length).to.equal(1);
    });

    it('log lines carry their tenant: no line of an acme request names globex or its task', async () => {
      const a = await acme().tasks.post({ title: 'logged' }, { idempotencyKey: 'l-a' });
      const g = await globex().tasks.post({ title: 'logged too' }, { idempotencyKey: 'l-g' });
      // (The capture holds the lines of the earlier tests too: only this test's tasks are looked at.)
      const created = app
        .logs()
        .map((l) => l.entry as { message?: string; tenant?: string; data?: { taskId?: string } } | undefined)
        .filter((e) => e?.message === 'task created' && (e.data?.taskId === a.id || e.data?.taskId === g.id));
      expect(created.map((e) => [e!.tenant, e!.data?.taskId])).to.have.deep.members([
        ['acme', a.id],
        ['globex', g.id],
      ]);
      const acmeLines = app.logs().filter((l) => (l.entry as { tenant?: string } | undefined)?.tenant === 'acme');
      expect(acmeLines.length).to.be.greaterThan(0);
      for (const line of acmeLines) expect(line.line).to.not.contain('globex').and.not.contain(g.id);
    });

    it('the migrated database passes the tenancy check; a table with tenant_id and no policy fails it', async () => {
      // As the migrations' user: a test file that imports a route module (and so src/lib/tenancy.ts) would otherwise
      // have turned row-level security on in this process too.
      disableRowLevelSecurity();
      const db = new Database({ connection: { ...app.db().endpoint, user: 'postgres', ssl: false }, logger: { warn: () => undefined }, maxConnections: 1 });
      try {
        await assertTenancy(db);
        await db.query(sql`CREATE TABLE notes (id int, tenant_id text)`);
        const error = await assertTenancy(db).catch((e: unknown) => e);
        expect(error).to.be.instanceOf(TenancyCheckError);
        expect((error as TenancyCheckError).problems.map((p) => p.subject)).to.include('public.notes');
      } finally {
        await db.query(sql`DROP TABLE IF EXISTS notes`);
        await db.end();
      }
    });
  });
}

describe('migrations/0010_tenancy.sql', () => {
  it('holds exactly what appRoleSql() and tenantTable(...) write (so the policies are the package\'s, not a copy drifting)', () => {
    const text = readFileSync(path.join(root, 'migrations', '0010_tenancy.sql'), 'utf8');
    const [up, down] = text.split(/^-- down$/m) as [string, string];
    for (const part of [appRoleSql(), tenantTable('tasks', { backfillTenant: 'default' }).up, tenantTable('task_events', { backfillTenant: 'default' }).up]) expect(up).to.contain(part);
    for (const part of [tenantTable('tasks').down, tenantTable('task_events').down]) expect(down).to.contain(part);
  });
});
