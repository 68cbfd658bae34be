import { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';
import { Database } from '@framework/data';
import { migrate, parseMigration } from '@framework/data/migrations';
import { CHANNELS_MIGRATION } from '../../src/index.js';

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
  // Applied as an app applies it: one of its migration files, through the data package's migrator.
  await migrate(db, { migrations: [parseMigration('0003_notify_channels.sql', CHANNELS_MIGRATION)] });
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
