import { Database } from '@framework/data';
import type { PoolConfig } from 'pg';

/** What a suite needs of a vector-capable database, whichever engine holds it (PGlite's pgvector or a native server's). */
export interface VectorEngine {
  readonly name: string;
  /** Where the engine listens (loopback, a port chosen free at start). */
  readonly connection: PoolConfig;
  /** Statements as the owner (superuser): migrations, plans, inspection. Row-level security does not apply. */
  exec(text: string): Promise<void>;
  query<T>(text: string, params?: readonly unknown[]): Promise<{ rows: T[] }>;
  /** A `Database` of `@framework/data` on it (closed by `stop`). */
  database(options?: { maxConnections?: number }): Database;
  stop(): Promise<void>;
}

/** How one engine runs statements as the owner, and how it stops once the suite's databases are closed. */
export interface EngineParts {
  readonly name: string;
  readonly connection: PoolConfig;
  query(text: string, params?: readonly unknown[]): Promise<{ rows: unknown[] }>;
  exec(text: string): Promise<void>;
  close(): Promise<void>;
}

const quiet = { warn: () => undefined, error: () => undefined, info: () => undefined };

/** The engine's `VectorEngine`: `database()` opens `Database`s on its connection, `stop()` closes them, then the engine. */
export function vectorEngine(parts: EngineParts): VectorEngine {
  const opened: Database[] = [];
  return {
    name: parts.name,
    connection: parts.connection,
    exec: (text) => parts.exec(text),
    query: async <T>(text: string, params?: readonly unknown[]) => ({ rows: (await parts.query(text, params)).rows as T[] }),
    database(options = {}) {
      const db = new Database({ connection: parts.connection, logger: quiet, maxConnections: options.maxConnections ?? 1 });
      opened.push(db);
      return db;
    },
    async stop() {
      for (const db of opened) await db.end().catch(() => undefined);
      await parts.close();
    },
  };
}
