import { PGlite } from '@electric-sql/pglite';
import { vector } from '@electric-sql/pglite-pgvector';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';
import { Database } from '@framework/data';
import type { PoolConfig } from 'pg';

export interface VectorDatabase {
  readonly pglite: PGlite;
  readonly connection: PoolConfig;
  readonly name: string;
  /** Statements as the owner, on PGlite's one session (a `SET` here holds for the served connections too). */
  exec(text: string): Promise<void>;
  query<T>(text: string): Promise<{ rows: T[] }>;
  /** A `Database` of `@framework/data` on it (closed by `stop`). */
  database(options?: { maxConnections?: number }): Database;
  stop(): Promise<void>;
}

const quiet = { warn: () => undefined, error: () => undefined, info: () => undefined };

/**
 * An in-memory PGlite with pgvector, served on the wire protocol on a free loopback port, as `fw dev`'s embedded
 * engine serves it. Native PostgreSQL is not used: Debian's PostgreSQL here has no pgvector package.
 */
export async function startVectorDatabase(): Promise<VectorDatabase> {
  const pglite = await PGlite.create({ extensions: { vector } });
  const server = new PGLiteSocketServer({ db: pglite, host: '127.0.0.1', port: 0, maxConnections: 20 });
  await server.start();
  const port = Number(server.getServerConn().split(':').pop());
  const connection: PoolConfig = { host: '127.0.0.1', port, database: 'postgres', user: 'postgres', ssl: false };
  const opened: Database[] = [];
  return {
    pglite,
    connection,
    name: 'PGlite + pgvector',
    exec: async (text) => {
      await pglite.exec(text);
    },
    query: async <T>(text: string) => ({ rows: (await pglite.query<T>(text)).rows }),
    database(options = {}) {
      const db = new Database({ connection, logger: quiet, maxConnections: options.maxConnections ?? 1 });
      opened.push(db);
      return db;
    },
    async stop() {
      for (const db of opened) await db.end().catch(() => undefined);
      await server.stop();
      await pglite.close();
    },
  };
}
