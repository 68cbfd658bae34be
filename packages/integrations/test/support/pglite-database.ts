import { readFileSync } from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';
import { Database } from '@framework/data';

/** A PGlite served on the wire protocol on a free loopback port (as fw dev's embedded engine), with the package's migration applied. */
export interface TestDatabase {
  readonly db: Database;
  stop(): Promise<void>;
}

export async function startTestDatabase(): Promise<TestDatabase> {
  const pglite = await PGlite.create();
  const server = new PGLiteSocketServer({ db: pglite, host: '127.0.0.1', port: 0, maxConnections: 10 });
  await server.start();
  const port = Number(server.getServerConn().split(':').pop());
  const migration = readFileSync(new URL('../../migrations/0001_fw_api_keys.sql', import.meta.url), 'utf8').split('-- down')[0]!;
  await pglite.exec(migration);
  const db = new Database({ connection: { host: '127.0.0.1', port, database: 'postgres', user: 'postgres', ssl: false } });
  return {
    db,
    async stop() {
      await db.end();
      await server.stop();
      await pglite.close();
    },
  };
}
