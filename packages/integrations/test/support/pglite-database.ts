import { readdirSync, readFileSync } from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';
import { oneExchangeAtATime } from '@framework/data/pglite';
import { Database } from '@framework/data';

/** A PGlite served on the wire protocol on a free loopback port (as fw dev's embedded engine), with the package's migrations applied. */
export interface TestDatabase {
  readonly db: Database;
  stop(): Promise<void>;
}

const MIGRATIONS = new URL('../../migrations/', import.meta.url);

/** The package's shipped migrations in order (their up parts), the first `upTo` of them when given. */
export function packageMigrations(upTo?: number): string[] {
  const files = readdirSync(MIGRATIONS).filter((f) => f.endsWith('.sql')).sort().slice(0, upTo);
  return files.map((f) => readFileSync(new URL(f, MIGRATIONS), 'utf8').split('-- down')[0]!);
}

export async function startTestDatabase(options: { readonly migrations?: number } = {}): Promise<TestDatabase & { readonly pglite: PGlite; migrate(): Promise<void> }> {
  const pglite = await PGlite.create();
  const server = new PGLiteSocketServer({ db: oneExchangeAtATime(pglite), host: '127.0.0.1', port: 0, maxConnections: 10 });
  await server.start();
  const port = Number(server.getServerConn().split(':').pop());
  const all = packageMigrations();
  const applied = options.migrations ?? all.length;
  for (const migration of all.slice(0, applied)) await pglite.exec(migration);
  const db = new Database({ connection: { host: '127.0.0.1', port, database: 'postgres', user: 'postgres', ssl: false } });
  return {
    db,
    pglite,
    async migrate() {
      for (const migration of all.slice(applied)) await pglite.exec(migration);
    },
    async stop() {
      await db.end();
      await server.stop();
      await pglite.close();
    },
  };
}
