import * as path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';
import { databaseEnv } from '@framework/core';
import { closeDatabases, getDatabase } from '@framework/data';
import { migrate } from '@framework/data/migrations';

/**
 * A real PostgreSQL for the tests: PGlite (PostgreSQL compiled to WebAssembly, in memory) served on a free local
 * port, with the project's migrations applied. The route code connects to it exactly as under `fw dev`: through the
 * variables core names for the `main` database.
 */
export async function startTestDatabase(databaseId = 'main'): Promise<{ stop(): Promise<void> }> {
  const db = await PGlite.create();
  const server = new PGLiteSocketServer({ db, port: 0, host: '127.0.0.1', maxConnections: 10 });
  await server.start();
  const port = Number(server.getServerConn().split(':').pop());
  const names = databaseEnv(databaseId);
  const previous = Object.fromEntries(Object.values(names).map((name) => [name, process.env[name]]));
  process.env[names.host] = '127.0.0.1';
  process.env[names.port] = String(port);
  process.env[names.name] = 'postgres';
  process.env[names.secretArn] = 'local';
  await migrate(getDatabase(databaseId), { dir: path.resolve('migrations') });
  return {
    async stop() {
      await closeDatabases();
      await server.stop();
      await db.close();
      for (const [name, value] of Object.entries(previous)) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
    },
  };
}
