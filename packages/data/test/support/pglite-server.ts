import { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';
import type { PoolConfig } from 'pg';
import { oneExchangeAtATime } from '../../src/pglite/index.js';

export interface RunningEngine {
  readonly name: string;
  readonly connection: PoolConfig;
  stop(): Promise<void>;
}

/**
 * An in-memory PGlite served on the wire protocol on a free loopback port, as `fw dev`'s embedded engine does (one
 * connection's exchange at a time: `oneExchangeAtATime`).
 */
export async function startPglite(): Promise<RunningEngine> {
  const db = await PGlite.create();
  const server = new PGLiteSocketServer({ db: oneExchangeAtATime(db), host: '127.0.0.1', port: 0, maxConnections: 20 });
  await server.start();
  const port = Number(server.getServerConn().split(':').pop());
  return {
    name: 'PGlite',
    connection: { host: '127.0.0.1', port, database: 'postgres', user: 'postgres', ssl: false },
    async stop() {
      await server.stop();
      await db.close();
    },
  };
}
