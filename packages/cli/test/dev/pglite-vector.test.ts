import { expect } from 'chai';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import pg from 'pg';
import { databaseEnv, migrationFunctionName, type DatabaseDefinition } from '@framework/core';
import { pgliteBackend, type RunningPostgres } from '../../src/dev/engines/postgres-backends.js';

describe("fw dev's embedded PGlite loads pgvector", function () {
  this.timeout(180_000);
  let dataDir: string;
  let running: RunningPostgres | undefined;
  const database: DatabaseDefinition = { id: 'main', engine: 'postgres', databaseName: 'main', migrationsDir: 'migrations', migrationFunctionName: migrationFunctionName('notes', 'dev', 'main'), variables: databaseEnv('main') };
  const log = { info: () => undefined, warn: () => undefined, error: () => undefined };

  before(() => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'fw-dev-pgvector-'));
  });
  after(async () => {
    await running?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('lets a migration CREATE EXTENSION vector, and serves HNSW cosine search', async () => {
    running = await pgliteBackend.start([database], dataDir, '127.0.0.1', log);
    const client = new pg.Client({ host: '127.0.0.1', port: running.ports.get('main')!, user: 'postgres', database: 'postgres' });
    await client.connect();
    try {
      await client.query('CREATE EXTENSION IF NOT EXISTS vector');
      await client.query('CREATE TABLE items (id int PRIMARY KEY, embedding vector(3))');
      await client.query('CREATE INDEX ON items USING hnsw (embedding vector_cosine_ops)');
      await client.query("INSERT INTO items VALUES (1, '[1,0,0]'), (2, '[0,1,0]'), (3, '[0.9,0.1,0]')");
      const { rows } = await client.query<{ id: number }>("SELECT id FROM items ORDER BY embedding <=> '[1,0,0]' LIMIT 2");
      expect(rows.map((r) => r.id)).to.deep.equal([1, 3]);
    } finally {
      await client.end();
    }
  });
});
