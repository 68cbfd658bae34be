import { PGlite } from '@electric-sql/pglite';
import { vector } from '@electric-sql/pglite-pgvector';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';
import { oneExchangeAtATime } from '@framework/data/pglite';
import { vectorEngine, type VectorEngine } from './vector-engine.js';

export interface VectorDatabase extends VectorEngine {
  /** The engine itself; `exec` and `query` run on its one session (a `SET` there holds for the served connections too). */
  readonly pglite: PGlite;
}

/**
 * An in-memory PGlite with pgvector, served on the wire protocol on a free loopback port, as `fw dev`'s embedded
 * engine serves it.
 */
export async function startVectorDatabase(): Promise<VectorDatabase> {
  const pglite = await PGlite.create({ extensions: { vector } });
  const server = new PGLiteSocketServer({ db: oneExchangeAtATime(pglite), host: '127.0.0.1', port: 0, maxConnections: 20 });
  await server.start();
  const port = Number(server.getServerConn().split(':').pop());
  const engine = vectorEngine({
    name: 'PGlite + pgvector',
    connection: { host: '127.0.0.1', port, database: 'postgres', user: 'postgres', ssl: false },
    query: (text, params) => pglite.query(text, params as unknown[] | undefined),
    exec: async (text) => {
      await pglite.exec(text);
    },
    close: async () => {
      await server.stop();
      await pglite.close();
    },
  });
  return { ...engine, pglite };
}
