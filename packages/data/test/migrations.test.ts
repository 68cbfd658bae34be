import { expect } from 'chai';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { Database, MigrationChangedError, MigrationFailedError, MigrationFileError, sql } from '../src/index.js';
import { createMigrationFile, loadMigrations, migrate, migrationStatus, parseMigration, rollbackMigrations } from '../src/migrations/index.js';
import { ENGINES, useEngine } from './support/engines.js';

const quiet = { warn: () => undefined };

function folder(files: Record<string, string>): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'fw-migrations-'));
  for (const [name, body] of Object.entries(files)) writeFileSync(path.join(dir, name), body);
  return dir;
}

const FILES = {
  '0001_create_tasks.sql': 'CREATE TABLE tasks (id serial PRIMARY KEY, title text NOT NULL);\nCREATE TABLE runs (migration text);\nINSERT INTO runs VALUES (\'0001\');\n-- down\nDROP TABLE tasks;\nDROP TABLE runs;\n',
  '0002_add_done.sql': 'ALTER TABLE tasks ADD COLUMN done boolean NOT NULL DEFAULT false;\nINSERT INTO runs VALUES (\'0002\');\n-- down\nALTER TABLE tasks DROP COLUMN done;\n',
  '10_add_index.sql': 'CREATE INDEX tasks_title ON tasks (title);\nINSERT INTO runs VALUES (\'10\');\n',
  'README.md': 'not a migration',
};

describe('migration files', () => {
  it('orders by the numeric prefix as a number and splits the down section', async () => {
    const dir = folder(FILES);
    try {
      const migrations = await loadMigrations(dir);
      expect(migrations.map((m) => m.fileName)).to.deep.equal(['0001_create_tasks.sql', '0002_add_done.sql', '10_add_index.sql']);
      expect(migrations[0]?.down).to.equal('DROP TABLE tasks;\nDROP TABLE runs;\n');
      expect(migrations[2]?.down).to.equal(undefined);
      expect(migrations.map((m) => m.version)).to.deep.equal(['1', '2', '10']);
    } finally {
      rmSync(dir, { recursive: true });
    }
  });

  it('refuses badly named files and duplicate versions', async () => {
    expect(() => parseMigration('create_tasks.sql', 'SELECT 1')).to.throw(MigrationFileError, /numeric|number/);
    const dir = folder({ '001_a.sql': 'SELECT 1', '1_b.sql': 'SELECT 2' });
    try {
      const error = await loadMigrations(dir).catch((e: unknown) => e);
      expect(error).to.be.instanceOf(MigrationFileError).with.property('message').that.contains('001_a.sql').and.contains('1_b.sql');
    } finally {
      rmSync(dir, { recursive: true });
    }
  });

  it('checksums the up section only, ignoring line endings', () => {
    const a = parseMigration('1_a.sql', 'CREATE TABLE t (id int);\n-- down\nDROP TABLE t;\n');
    expect(parseMigration('1_a.sql', 'CREATE TABLE t (id int);\r\n-- down\r\nDROP TABLE t; -- safer\r\n').checksum).to.equal(a.checksum);
    expect(parseMigration('1_a.sql', 'CREATE TABLE t (id bigint);\n').checksum).not.to.equal(a.checksum);
  });

  it('creates the next numbered file, or the next timestamp in a timestamped folder', async () => {
    const dir = folder({ '0001_a.sql': 'SELECT 1', '0009_b.sql': 'SELECT 1' });
    const stamped = folder({ '20260101000000_a.sql': 'SELECT 1' });
    try {
      const file = await createMigrationFile(dir, 'Add Tags!');
      expect(path.basename(file)).to.equal('0010_add_tags.sql');
      expect(readFileSync(file, 'utf8')).to.match(/^-- down$/m);
      // the new, still empty file does not break loading
      expect((await loadMigrations(dir)).map((m) => m.version)).to.deep.equal(['1', '9', '10']);
      const next = await createMigrationFile(stamped, 'b', { now: new Date(Date.UTC(2026, 2, 4, 5, 6, 7)) });
      expect(path.basename(next)).to.equal('20260304050607_b.sql');
      expect(readdirSync(stamped)).to.have.length(2);
    } finally {
      rmSync(dir, { recursive: true });
      rmSync(stamped, { recursive: true });
    }
  });
});

for (const engine of ENGINES) {
  describe(`migrations on ${engine.name}`, () => {
    const server = useEngine(engine);
    let db: Database;
    let dir: string;

    before(() => {
      db = new Database({ connection: server().connection, logger: quiet });
    });
    after(async () => db?.end());
    beforeEach(async () => {
      dir = folder(FILES);
      await db.query(sql`DROP TABLE IF EXISTS tasks, runs, fw_migrations`);
    });
    afterEach(() => rmSync(dir, { recursive: true, force: true }));

    const runs = async () => (await db.many<{ migration: string }>(sql`SELECT migration FROM runs ORDER BY migration`)).map((r) => r.migration);

    it('applies pending migrations in order, then is a no-op', async () => {
      const first = await migrate(db, { dir });
      expect(first).to.deep.equal({ applied: ['0001_create_tasks.sql', '0002_add_done.sql', '10_add_index.sql'], alreadyApplied: 0 });
      const second = await migrate(db, { dir });
      expect(second).to.deep.equal({ applied: [], alreadyApplied: 3 });
      expect(await runs()).to.deep.equal(['0001', '0002', '10']);
      const status = await migrationStatus(db, { dir });
      expect(status.map((s) => `${s.fileName}:${s.state}`)).to.deep.equal(['0001_create_tasks.sql:applied', '0002_add_done.sql:applied', '10_add_index.sql:applied']);
    });

    it('lists pending migrations without creating anything', async () => {
      const status = await migrationStatus(db, { dir });
      expect(status.map((s) => s.state)).to.deep.equal(['pending', 'pending', 'pending']);
      expect(await db.maybeOne(sql`SELECT to_regclass('fw_migrations') AS t`)).to.deep.equal({ t: null });
    });

    it('refuses to run when an applied file was edited, naming it', async () => {
      await migrate(db, { dir });
      writeFileSync(path.join(dir, '0002_add_done.sql'), 'ALTER TABLE tasks ADD COLUMN done boolean;\n');
      writeFileSync(path.join(dir, '11_more.sql'), 'INSERT INTO runs VALUES (\'11\');\n');
      const error = await migrate(db, { dir }).catch((e: unknown) => e);
      expect(error).to.be.instanceOf(MigrationChangedError).with.property('message').that.contains('0002_add_done.sql');
      expect(await runs()).not.to.include('11');
      expect((await migrationStatus(db, { dir })).find((s) => s.version === '2')?.state).to.equal('changed');
    });

    it('rolls a failing migration back entirely and applies nothing after it', async () => {
      writeFileSync(path.join(dir, '0002_add_done.sql'), 'INSERT INTO runs VALUES (\'0002\');\nSELECT * FROM no_such_table;\n');
      const error = await migrate(db, { dir }).catch((e: unknown) => e);
      expect(error).to.be.instanceOf(MigrationFailedError).with.property('file', '0002_add_done.sql');
      expect(await runs()).to.deep.equal(['0001']);
      expect((await migrationStatus(db, { dir })).map((s) => s.state)).to.deep.equal(['applied', 'pending', 'pending']);
    });

    it('rolls back the newest migrations with their down sections', async () => {
      await migrate(db, { dir, migrations: (await loadMigrations(dir)).slice(0, 2) });
      const rolled = await rollbackMigrations(db, { dir, steps: 1 });
      expect(rolled).to.deep.equal(['0002_add_done.sql']);
      const columns = await db.many<{ column_name: string }>(sql`SELECT column_name FROM information_schema.columns WHERE table_name = 'tasks'`);
      expect(columns.map((c) => c.column_name)).not.to.include('done');
      expect((await migrationStatus(db, { dir })).map((s) => s.state)).to.deep.equal(['applied', 'pending', 'pending']);
    });

    it('runs a file marked fw:no-transaction outside a transaction', async () => {
      // VACUUM refuses to run inside a transaction block
      writeFileSync(path.join(dir, '11_vacuum.sql'), '-- fw:no-transaction\nVACUUM tasks;\n');
      const result = await migrate(db, { dir });
      expect(result.applied).to.include('11_vacuum.sql');
    });

    it('applies each migration once when two runners start together', async () => {
      // given two runners with their own pools (two deploys, or a deploy and a developer)
      const other = new Database({ connection: server().connection, logger: quiet });
      try {
        // when both migrate at the same time
        const [a, b] = await Promise.all([migrate(db, { dir }), migrate(other, { dir })]);
        // then every migration ran exactly once, by one of them
        expect([...a.applied, ...b.applied].sort()).to.deep.equal(['0001_create_tasks.sql', '0002_add_done.sql', '10_add_index.sql']);
        expect(await runs()).to.deep.equal(['0001', '0002', '10']);
      } finally {
        await other.end();
      }
    });
  });
}
