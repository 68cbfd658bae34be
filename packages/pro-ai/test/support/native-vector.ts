import pg from 'pg';
// The data package's native server: Debian's PostgreSQL started by the test (one per run, a fresh database each).
import { startNativePostgres } from '../../../data/test/support/native-postgres.js';
import { vectorEngine, type VectorEngine } from './vector-engine.js';

export type { VectorEngine };

/**
 * A database on the native PostgreSQL server with pgvector created in it, or why there is none: the server may be
 * missing, or have no pgvector extension. Debian 12's archive has no pgvector package; `.ci/install-pgvector` builds
 * it from the Debian source package (what `.ci/prepare-machine` runs), and PostgreSQL's own apt repository and
 * Debian 13 ship `postgresql-<major>-pgvector`.
 */
export async function startNativeVectorEngine(): Promise<VectorEngine | string> {
  const running = await startNativePostgres();
  if (typeof running === 'string') return running;
  const admin = new pg.Client(running.connection);
  // A server restart (the benchmark's) ends this connection: the next query says so, the process does not crash.
  admin.on('error', () => undefined);
  await admin.connect();
  const available = await admin.query<{ version: string | null }>("SELECT default_version AS version FROM pg_available_extensions WHERE name = 'vector'");
  if (available.rows.length === 0) {
    const server = await admin.query<{ server_version: string }>('SHOW server_version');
    await admin.end();
    await running.stop();
    return `this PostgreSQL ${server.rows[0]!.server_version.split(' ')[0]} server has no pgvector extension (run .ci/install-pgvector, or install postgresql-<major>-pgvector where the distribution ships it)`;
  }
  await admin.query('CREATE EXTENSION IF NOT EXISTS vector');
  return vectorEngine({
    name: 'PostgreSQL + pgvector',
    connection: running.connection,
    query: (text, params) => admin.query(text, params as unknown[] | undefined),
    exec: async (text) => {
      await admin.query(text);
    },
    close: async () => {
      await admin.end().catch(() => undefined);
      await running.stop();
    },
  });
}
