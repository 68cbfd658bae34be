import { Database } from '@framework/data';
import pg from 'pg';
// The data package's native server: Debian's PostgreSQL started by the test (one per run, a fresh database each).
import { startNativePostgres } from '../../../data/test/support/native-postgres.js';

/** What a suite needs of a vector-capable database, whichever engine holds it. */
export interface VectorEngine {
  readonly name: string;
  /** Statements as the owner (superuser): migrations, plans, inspection. Row-level security does not apply. */
  exec(text: string): Promise<void>;
  query<T>(text: string): Promise<{ rows: T[] }>;
  /** A `Database` of `@framework/data` on it (closed by `stop`). */
  database(options?: { maxConnections?: number }): Database;
  stop(): Promise<void>;
}

const quiet = { warn: () => undefined, error: () => undefined, info: () => undefined };

/**
 * A database on the native PostgreSQL server with pgvector created in it, or why there is none: the server may be
 * missing, or have no pgvector extension (Debian 12's archive has no pgvector package; PostgreSQL's own apt
 * repository and Debian 13 ship `postgresql-<major>-pgvector`).
 */
export async function startNativeVectorEngine(): Promise<VectorEngine | string> {
  const running = await startNativePostgres();
  if (typeof running === 'string') return running;
  const admin = new pg.Client(running.connection);
  await admin.connect();
  const available = await admin.query<{ version: string | null }>("SELECT default_version AS version FROM pg_available_extensions WHERE name = 'vector'");
  if (available.rows.length === 0) {
    const server = await admin.query<{ server_version: string }>('SHOW server_version');
    await admin.end();
    await running.stop();
    return `this PostgreSQL ${server.rows[0]!.server_version.split(' ')[0]} server has no pgvector extension (install postgresql-<major>-pgvector where the distribution ships it)`;
  }
  await admin.query('CREATE EXTENSION IF NOT EXISTS vector');
  const opened: Database[] = [];
  return {
    name: 'PostgreSQL + pgvector',
    exec: async (text) => {
      await admin.query(text);
    },
    query: async <T>(text: string) => ({ rows: (await admin.query(text)).rows as T[] }),
    database(options = {}) {
      const db = new Database({ connection: running.connection, logger: quiet, maxConnections: options.maxConnections ?? 1 });
      opened.push(db);
      return db;
    },
    async stop() {
      for (const db of opened) await db.end().catch(() => undefined);
      await admin.end().catch(() => undefined);
      await running.stop();
    },
  };
}
