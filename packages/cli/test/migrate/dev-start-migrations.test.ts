import { expect } from 'chai';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';
import { oneExchangeAtATime } from '@framework/data/pglite';
import { databaseEnv, migrationFunctionName, type DatabaseDefinition } from '@framework/core';
import { applyPendingMigrations } from '../../src/dev/engines/database-migrations.js';

describe('fw dev applies pending migrations when its database engine starts', () => {
  let pglite: PGlite;
  let server: PGLiteSocketServer;
  let port: number;
  let root: string;
  let lines: string[];
  const log = { info: (m: string) => lines.push(`info ${m}`), warn: (m: string) => lines.push(`warn ${m}`), error: (m: string) => lines.push(`error ${m}`) };
  const database: DatabaseDefinition = { id: 'main', engine: 'postgres', databaseName: 'main', migrationsDir: 'migrations', migrationFunctionName: migrationFunctionName('notes', 'dev', 'main'), variables: databaseEnv('main') };

  beforeEach(async () => {
    pglite = await PGlite.create();
    server = new PGLiteSocketServer({ db: oneExchangeAtATime(pglite), host: '127.0.0.1', port: 0, maxConnections: 5 });
    await server.start();
    port = Number(server.getServerConn().split(':').pop());
    root = mkdtempSync(path.join(tmpdir(), 'fw-dev-migrations-'));
    mkdirSync(path.join(root, 'migrations'));
    lines = [];
  });
  afterEach(async () => {
    await server.stop();
    await pglite.close();
    rmSync(root, { recursive: true, force: true });
  });

  it('applies them before functions connect, and logs each file', async () => {
    writeFileSync(path.join(root, 'migrations', '0001_notes.sql'), 'CREATE TABLE notes (id serial PRIMARY KEY);\n');
    await applyPendingMigrations([database], new Map([['main', port]]), { host: '127.0.0.1', rootDir: root, log });
    expect(lines).to.deep.equal(['info databases: main: applied 0001_notes.sql']);
    expect((await pglite.query<{ n: number }>('SELECT count(*)::int AS n FROM notes')).rows[0]).to.deep.equal({ n: 0 });
    lines = [];
    await applyPendingMigrations([database], new Map([['main', port]]), { host: '127.0.0.1', rootDir: root, log });
    expect(lines).to.deep.equal(['info databases: main: 1 migration(s), all applied']);
  });

  it('logs a failing migration with the fix instead of stopping fw dev', async () => {
    writeFileSync(path.join(root, 'migrations', '0001_bad.sql'), 'CREATE TABLE broken (;\n');
    await applyPendingMigrations([database], new Map([['main', port]]), { host: '127.0.0.1', rootDir: root, log });
    expect(lines).to.have.length(1);
    expect(lines[0]).to.match(/^error databases: main: migrations not applied: Migration 0001_bad\.sql failed.*fw migrate/);
  });
});
