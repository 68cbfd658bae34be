import { PGlite } from '@electric-sql/pglite';
import { expect } from 'chai';
import { TENANTS_TABLE_MIGRATION, type TenantRow } from '../../src/index.js';

describe('tenants table migration', () => {
  // One embedded database for the file (starting one takes seconds); each test starts from a fresh table.
  let db: PGlite;
  before(async () => {
    db = new PGlite();
  });
  after(async () => db.close());
  beforeEach(async () => {
    await db.exec('DROP TABLE IF EXISTS tenants');
    await db.exec(TENANTS_TABLE_MIGRATION.split('-- down')[0]!);
  });

  it('creates the table onboarding writes: defaults to tier free and status active', async () => {
    await db.query(`INSERT INTO tenants (id, name) VALUES ('acme', 'Acme Inc.')`);
    const { rows } = await db.query<TenantRow>('SELECT * FROM tenants');
    expect(rows).to.have.length(1);
    expect(rows[0]).to.include({ id: 'acme', name: 'Acme Inc.', tier: 'free', status: 'active', disabled_at: null });
  });

  it('refuses an id the resolution would refuse, and an unknown status', async () => {
    for (const id of ['../x', '', 'a b', 'x'.repeat(65)]) {
      let failed = false;
      await db.query('INSERT INTO tenants (id, name) VALUES ($1, $2)', [id, 'n']).catch(() => (failed = true));
      expect(failed, JSON.stringify(id)).to.equal(true);
    }
    let failed = false;
    await db.query(`INSERT INTO tenants (id, name, status) VALUES ('acme', 'n', 'gone')`).catch(() => (failed = true));
    expect(failed).to.equal(true);
  });

  it('has a down section that drops it', async () => {
    await db.exec(TENANTS_TABLE_MIGRATION.split('-- down')[1]!);
    const { rows } = await db.query(`SELECT to_regclass('tenants') AS t`);
    expect(rows[0]).to.deep.equal({ t: null });
  });
});
