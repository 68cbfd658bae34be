import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { expect } from 'chai';
import pg from 'pg';
import type { AppDefinition } from '@framework/core';
import { applyPendingMigrations, pgliteBackend, type PostgresBackend } from '@framework/cli/dev';
import { migratedTemplate, type MigratedTemplateSource } from '../src/data/migrated-template.js';
import { copyMigratedPglite, copyPgliteTemplate, pgliteTemplate } from '../src/data/pglite-template.js';

/** Where the templates go: one folder for the file (PGlite's initdb, which the migrated templates start from, runs once). */
let shared: string;

/** A project with one database and the given migration files, in a temporary folder. */
function project(migrations: Record<string, string>): { app: AppDefinition; testDir: string; remove: () => void } {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'fw-migrated-'));
  fs.mkdirSync(path.join(root, 'migrations'));
  for (const [file, sql] of Object.entries(migrations)) fs.writeFileSync(path.join(root, 'migrations', file), sql);
  const app = { rootDir: root, databases: [{ id: 'main', databaseName: 'main', migrationsDir: 'migrations' }] } as unknown as AppDefinition;
  return { app, testDir: shared, remove: () => fs.rmSync(root, { recursive: true, force: true }) };
}

/** PGlite's backend, counting how often it is started. */
function counting(): { backend: PostgresBackend; starts: () => number } {
  let starts = 0;
  return {
    backend: { label: 'PGlite', start: (...args) => (starts++, pgliteBackend.start(...args)) },
    starts: () => starts,
  };
}

async function source(testDir: string, backend: PostgresBackend): Promise<MigratedTemplateSource> {
  const base = await pgliteTemplate(testDir);
  return { kind: 'embedded', base, layDown: (dir) => copyPgliteTemplate(base, dir, ['main']), backend, migrate: applyPendingMigrations };
}

async function tablesIn(dataDir: string): Promise<string[]> {
  const running = await pgliteBackend.start([{ id: 'main', databaseName: 'main' } as AppDefinition['databases'][number]], dataDir, '127.0.0.1', { info() {}, warn() {}, error() {} });
  const client = new pg.Client({ host: '127.0.0.1', port: running.ports.get('main')!, user: 'postgres', database: 'main' });
  try {
    await client.connect();
    const rows = await client.query<{ table_name: string }>(`SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' ORDER BY 1`);
    return rows.rows.map((r) => r.table_name);
  } finally {
    await client.end().catch(() => undefined);
    await running.stop();
  }
}

describe('migratedTemplate: the app database with its migrations applied, made once per set of migrations', function () {
  this.timeout(300_000);
  before(() => {
    shared = fs.mkdtempSync(path.join(os.tmpdir(), 'fw-migrated-templates-'));
  });
  after(() => fs.rmSync(shared, { recursive: true, force: true }));

  it('holds the migrated schema, is made once, and a test app copy starts from it', async () => {
    const p = project({ '0001_notes.sql': 'CREATE TABLE notes (id serial PRIMARY KEY, body text NOT NULL);' });
    try {
      const { backend, starts } = counting();
      const first = await migratedTemplate(p.testDir, p.app, await source(p.testDir, backend));
      expect(first, 'a template').to.be.a('string');
      const again = await migratedTemplate(p.testDir, p.app, await source(p.testDir, backend));
      expect(again).to.equal(first);
      expect(starts(), 'the engine started once: the second call found the template').to.equal(1);
      const dataDir = path.join(p.app.rootDir, 'app-1');
      copyMigratedPglite(first!, dataDir, ['main']);
      expect(await tablesIn(dataDir)).to.include('notes');
    } finally {
      p.remove();
    }
  });

  it('an edited or added migration makes another template', async () => {
    const p = project({ '0001_notes.sql': 'CREATE TABLE notes (id serial PRIMARY KEY);' });
    try {
      const first = await migratedTemplate(p.testDir, p.app, await source(p.testDir, pgliteBackend));
      fs.writeFileSync(path.join(p.app.rootDir, 'migrations', '0002_tags.sql'), 'CREATE TABLE tags (name text PRIMARY KEY);');
      const second = await migratedTemplate(p.testDir, p.app, await source(p.testDir, pgliteBackend));
      expect(second).to.be.a('string').and.not.equal(first);
      expect(fs.existsSync(first!), 'the template of the earlier migrations is gone').to.equal(false);
      const dataDir = path.join(p.app.rootDir, 'app-2');
      copyMigratedPglite(second!, dataDir, ['main']);
      expect(await tablesIn(dataDir)).to.include.members(['notes', 'tags']);
    } finally {
      p.remove();
    }
  });

  it('a failing migration keeps no template (the caller migrates as before, and fw dev reports the error)', async () => {
    const p = project({ '0001_broken.sql': 'CREATE TABLE broken (id serial PRIMARY KEY, oops nosuchtype);' });
    const templates = () => fs.readdirSync(shared).filter((f) => f.startsWith('migrated-'));
    try {
      const before = templates();
      const made = await migratedTemplate(p.testDir, p.app, await source(p.testDir, pgliteBackend));
      expect(made).to.equal(undefined);
      expect(templates(), 'nothing new, not even a half-made folder').to.deep.equal(before);
    } finally {
      p.remove();
    }
  });
});
