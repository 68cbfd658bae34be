import { Database, sql } from '@framework/data';
import { createLogger, handler, setRootLogger } from '@framework/runtime';
import { expect } from 'chai';
import pg from 'pg';
import {
  activeTenantMiddleware,
  appRoleSql,
  createQuotas,
  defineTiers,
  disableRowLevelSecurity,
  enableRowLevelSecurity,
  offboardTenant,
  onboardTenant,
  runWithTenant,
  TenancyUsageError,
  tenantMiddleware,
  TENANTS_TABLE_MIGRATION,
  tenantTable,
  type TenantEvent,
  type TenantFiles,
  type TenantUserAdmin,
} from '../../src/index.js';
import { ENGINES, useEngine } from '../support/engines.js';
import { httpEvent, userClaims } from '../support/events.js';

/*
 * The database is real (PGlite over its socket, and native PostgreSQL), with row-level security on: lifecycle runs
 * as the app role like requests do. The user admin, the bucket and the event queue are small in-memory stand-ins
 * with the calls of service.auth, a BucketClient and a queue client (their own packages test the real ones).
 */
function userAdmin() {
  const users = new Map<string, { roles: readonly string[]; tenant?: string; enabled: boolean }>();
  const admin: TenantUserAdmin & { users: typeof users; failNext?: boolean } = {
    users,
    async createUser(input) {
      if (admin.failNext) throw new Error('user pool unavailable');
      users.set(input.username, { roles: input.roles ?? [], ...(input.tenant !== undefined ? { tenant: input.tenant } : {}), enabled: true });
      return { username: input.username };
    },
    async disableUser(username) {
      users.get(username)!.enabled = false;
    },
    async deleteUser(username) {
      users.delete(username);
    },
    async getUser(username) {
      return users.get(username);
    },
    async setTenant(username, tenant) {
      if (admin.failNext) throw new Error('user pool unavailable');
      const { tenant: _previous, ...user } = users.get(username)!;
      users.set(username, tenant === undefined ? user : { ...user, tenant });
    },
    async setRoles(username, roles) {
      users.get(username)!.roles = [...roles];
    },
  };
  return admin;
}

function bucket(): TenantFiles['bucket'] & { objects: Map<string, string> } {
  const objects = new Map<string, string>();
  return {
    objects,
    async list({ prefix = '' } = {}) {
      return { objects: [...objects].filter(([key]) => key.startsWith(prefix)).sort().map(([key, body]) => ({ key, size: body.length })) };
    },
    async delete(key) {
      objects.delete(key);
    },
    async put(key, body) {
      objects.set(key, body);
    },
  };
}

const tiers = defineTiers({ free: { seats: 1 }, pro: { seats: 10 } });

for (const engine of ENGINES) {
  describe(`tenant lifecycle on ${engine.name}`, () => {
    after(async () => {
      disableRowLevelSecurity();
      await db?.end();
      await owner?.end();
    });
    const server = useEngine(engine);
    let owner: pg.Pool;
    let db: Database;
    before(async () => {
      setRootLogger(createLogger({ sink: () => undefined }));
      owner = new pg.Pool({ ...server().connection, max: 1 });
      await owner.query(TENANTS_TABLE_MIGRATION.split('-- down')[0]!);
      // "boards" sorts before "cards", which references it: offboarding must delete cards first.
      await owner.query('CREATE TABLE boards (id serial PRIMARY KEY, title text NOT NULL)');
      await owner.query('CREATE TABLE cards (id serial PRIMARY KEY, board_id int NOT NULL REFERENCES boards (id), text text NOT NULL)');
      await owner.query(tenantTable('boards').up);
      await owner.query(tenantTable('cards').up);
      await owner.query(appRoleSql());
      db = new Database({ connection: server().connection, logger: { warn: () => undefined }, maxConnections: 2 });
      enableRowLevelSecurity();
    });
    afterEach(() => setRootLogger(undefined));

    async function seed(tenant: string) {
      await runWithTenant({ id: tenant }, async () => {
        const board = await db.one<{ id: number }>(sql`INSERT INTO boards (title) VALUES (${`${tenant} board`}) RETURNING id`);
        await db.query(sql`INSERT INTO cards (board_id, text) VALUES (${board.id}, ${`${tenant} card 1`}), (${board.id}, ${`${tenant} card 2`})`);
      });
    }

    it('onboards a tenant: row with its tier, first admin through the user admin, a seat, an event; a second time is 409', async () => {
      const auth = userAdmin();
      const events: TenantEvent[] = [];
      const quotas = createQuotas({ tiers, tierOf: () => 'pro' });
      const { tenant, admin } = await onboardTenant({ id: 'acme', name: 'Acme', tier: 'pro', admin: { username: 'ann@acme.test', temporaryPassword: 'Temp-pass-123' } }, { db, auth, quotas, events: { send: async (e) => events.push(e) } });
      expect(tenant).to.include({ id: 'acme', name: 'Acme', tier: 'pro', status: 'active' });
      expect(admin).to.equal('ann@acme.test');
      expect(auth.users.get('ann@acme.test')).to.deep.equal({ roles: ['admin'], tenant: 'acme', enabled: true });
      expect((await quotas.usage({ id: 'acme' })).quotas['seats']).to.deep.equal({ used: 1, limit: 10 });
      expect(events.map((e) => e.type)).to.deep.equal(['tenant.onboarded']);
      const again = await onboardTenant({ id: 'acme', name: 'Acme 2', admin: { username: 'bob' } }, { db }).catch((e: unknown) => e);
      expect(again).to.include({ status: 409, code: 'TENANT_EXISTS' });
      const bad = await onboardTenant({ id: '../x', name: 'x', admin: { username: 'x' } }, { db }).catch((e: unknown) => e);
      expect(bad).to.include({ status: 400, code: 'INVALID_TENANT_ID' });
      await owner.query(`DELETE FROM tenants WHERE id = 'acme'`);
    });

    it('onboards the workspace of a founder who signed up alone: they are moved in and made admin, keeping their roles', async () => {
      const auth = userAdmin();
      auth.users.set('sam@initech.test', { roles: ['member'], enabled: true });
      const quotas = createQuotas({ tiers, tierOf: () => 'pro' });
      const { admin } = await onboardTenant({ id: 'initech', name: 'Initech', admin: { username: 'sam@initech.test', existing: true } }, { db, auth, quotas });
      expect(admin).to.equal('sam@initech.test');
      expect(auth.users.get('sam@initech.test')).to.deep.equal({ roles: ['member', 'admin'], tenant: 'initech', enabled: true });
      expect((await quotas.usage({ id: 'initech' })).quotas['seats']).to.deep.equal({ used: 1, limit: 10 });
      // Now in a tenant: a second workspace is refused (409), and an unknown user is 404; neither leaves a row
      const again = await onboardTenant({ id: 'initech-2', name: 'Second', admin: { username: 'sam@initech.test', existing: true } }, { db, auth }).catch((e: unknown) => e);
      expect(again).to.include({ status: 409, code: 'ADMIN_IN_TENANT' });
      const nobody = await onboardTenant({ id: 'initech-3', name: 'Third', admin: { username: 'nobody@initech.test', existing: true } }, { db, auth }).catch((e: unknown) => e);
      expect(nobody).to.include({ status: 404, code: 'ADMIN_NOT_FOUND' });
      // A user admin without the calls a move needs is the app's mistake, named before anything changes
      const { getUser: _g, setTenant: _t, setRoles: _r, ...createOnly } = auth;
      const usage = await onboardTenant({ id: 'initech-4', name: 'Fourth', admin: { username: 'sam@initech.test', existing: true } }, { db, auth: createOnly }).catch((e: unknown) => e);
      expect(usage).to.be.instanceOf(TenancyUsageError).with.property('code', 'FW_ERR_TENANCY_USAGE');
      expect((await owner.query(`SELECT id FROM tenants WHERE id LIKE 'initech-%'`)).rows).to.deep.equal([]);
      await owner.query(`DELETE FROM tenants WHERE id = 'initech'`);
    });

    it('puts a founder back in no tenant with their own roles when onboarding fails after moving them', async () => {
      const auth = userAdmin();
      auth.users.set('sam@initech.test', { roles: ['member'], enabled: true });
      // The seat count fails (free allows one seat, and one is taken already)
      const quotas = createQuotas({ tiers, tierOf: () => 'free' });
      await quotas.consume('seats', 1, { id: 'initech' });
      const failed = await onboardTenant({ id: 'initech', name: 'Initech', admin: { username: 'sam@initech.test', existing: true } }, { db, auth, quotas }).catch((e: unknown) => e);
      expect(failed).to.have.property('code').that.matches(/^QUOTA_/);
      expect(auth.users.get('sam@initech.test')).to.deep.equal({ roles: ['member'], enabled: true });
      expect((await owner.query(`SELECT id FROM tenants WHERE id = 'initech'`)).rows).to.deep.equal([]);
    });

    it('leaves nothing behind when creating the admin fails, so a retry starts clean', async () => {
      const auth = userAdmin();
      auth.failNext = true;
      const failed = await onboardTenant({ id: 'initech', name: 'Initech', admin: { username: 'peter' } }, { db, auth }).catch((e: Error) => e);
      expect((failed as Error).message).to.equal('user pool unavailable');
      expect((await owner.query(`SELECT id FROM tenants WHERE id = 'initech'`)).rows).to.deep.equal([]);
      auth.failNext = false;
      expect((await onboardTenant({ id: 'initech', name: 'Initech', admin: { username: 'peter' } }, { db, auth })).tenant.id).to.equal('initech');
      await owner.query(`DELETE FROM tenants WHERE id = 'initech'`);
    });

    it("offboards a tenant: disables it, exports its rows and files, deletes all of them and nothing of another tenant's", async () => {
      const auth = userAdmin();
      const events: TenantEvent[] = [];
      const files = bucket();
      const deps = { db, auth, events: { send: async (e: TenantEvent) => events.push(e) } };
      await onboardTenant({ id: 'acme', name: 'Acme', admin: { username: 'ann' } }, deps);
      await onboardTenant({ id: 'globex', name: 'Globex', admin: { username: 'gus' } }, deps);
      await seed('acme');
      await seed('globex');
      await files.put('tenants/acme/logo.png', 'png');
      await files.put('tenants/acme/docs/a.pdf', 'pdf!');
      await files.put('tenants/globex/logo.png', 'png');
      events.length = 0;

      // a request of the tenant while it is being offboarded is refused once it is disabled
      const route = handler(async () => 'ok', { middleware: [tenantMiddleware(), activeTenantMiddleware(db, { cacheSeconds: 0 })] });
      expect((await route(httpEvent({ claims: userClaims('acme') }))).statusCode).to.equal(200);

      const kept = await offboardTenant('acme', { ...deps, files: { bucket: files }, usernames: ['ann'], keepData: true });
      expect(kept.deletedRows).to.equal(0);
      const refused = await route(httpEvent({ claims: userClaims('acme') }));
      expect(refused.statusCode).to.equal(403);
      expect(JSON.parse(String(refused.body)).error.code).to.equal('TENANT_DISABLED');
      expect((await route(httpEvent({ claims: userClaims('globex') }))).statusCode).to.equal(200);
      expect(auth.users.get('ann')?.enabled).to.equal(false);

      const result = await offboardTenant('acme', { ...deps, files: { bucket: files }, usernames: ['ann'] });
      expect(result.export.tables['public.boards']!.map((r) => (r as { title: string }).title)).to.deep.equal(['acme board']);
      expect(result.export.tables['public.cards']).to.have.length(2);
      expect(result.export.files.map((f) => f.key)).to.deep.equal(['tenants/acme/docs/a.pdf', 'tenants/acme/logo.png']);
      expect(result).to.include({ deletedRows: 3, deletedFiles: 2, exportKey: 'tenant-exports/acme.json' });
      expect(JSON.parse(files.objects.get('tenant-exports/acme.json')!).tenant.id).to.equal('acme');

      // acme is gone everywhere; globex is untouched
      expect((await owner.query(`SELECT tenant_id, count(*)::int AS n FROM cards GROUP BY 1`)).rows).to.deep.equal([{ tenant_id: 'globex', n: 2 }]);
      expect((await owner.query(`SELECT tenant_id FROM boards`)).rows).to.deep.equal([{ tenant_id: 'globex' }]);
      expect((await owner.query(`SELECT id FROM tenants ORDER BY id`)).rows).to.deep.equal([{ id: 'globex' }]);
      expect([...files.objects.keys()].sort()).to.deep.equal(['tenant-exports/acme.json', 'tenants/globex/logo.png']);
      expect(auth.users.has('ann')).to.equal(false);
      expect(auth.users.has('gus')).to.equal(true);
      expect(events.map((e) => e.type)).to.deep.equal(['tenant.disabled', 'tenant.exported', 'tenant.disabled', 'tenant.exported', 'tenant.deleted']);
      expect((await route(httpEvent({ claims: userClaims('acme') }))).statusCode).to.equal(404);

      const missing = await offboardTenant('acme', { db }).catch((e: unknown) => e);
      expect(missing).to.include({ status: 404, code: 'TENANT_NOT_FOUND' });
      await owner.query(`DELETE FROM cards; DELETE FROM boards; DELETE FROM tenants`);
    });
  });
}
