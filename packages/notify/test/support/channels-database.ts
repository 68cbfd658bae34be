import { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';
import { Database, sql } from '@framework/data';
import { CHANNELS_SCHEMA_SQL } from '../../src/index.js';

/** PGlite served on the wire protocol on a free loopback port (as `fw dev` serves it), with the channels' tables. */
export interface ChannelsDatabase {
  readonly db: Database;
  stop(): Promise<void>;
}

export async function startChannelsDatabase(): Promise<ChannelsDatabase> {
  const pglite = await PGlite.create();
  const server = new PGLiteSocketServer({ db: pglite, host: '127.0.0.1', port: 0, maxConnections: 20 });
  await server.start();
  const port = Number(server.getServerConn().split(':').pop());
  const db = new Database({ connection: { host: '127.0.0.1', port, database: 'postgres', user: 'postgres', ssl: false }, maxConnections: 4 });
  // The schema's statements one by one: the extended protocol takes one statement per query.
  for (const statement of CHANNELS_SCHEMA_SQL.split(/;\s*\n/).map((s) => s.trim()).filter(Boolean)) await db.query(sql.unsafeRaw(statement));
  return {
    db,
    async stop() {
      await db.end();
      await server.stop();
      await pglite.close();
    },
  };
}

/** Starts one database for the suite (`before`) and stops it (`after`); returns a getter. */
export function useChannelsDatabase(): () => Database {
  let running: ChannelsDatabase | undefined;
  before(async function () {
    this.timeout(60_000);
    running = await startChannelsDatabase();
  });
  after(async () => {
    await running?.stop();
    running = undefined;
  });
  return () => {
    if (!running) throw new Error('the channels database is not running');
    return running.db;
  };
}
