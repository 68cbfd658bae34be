import { Database } from '@framework/data';
import { migrate, parseMigration } from '@framework/data/migrations';
// The data package's engines: PGlite served on the wire protocol (as `fw dev` serves it), and a native PostgreSQL
// server started by the test (skipped, saying why, where it cannot run).
import { ENGINES, type RunningEngine } from '../../../data/test/support/engines.js';
import { startPglite } from '../../../data/test/support/pglite-server.js';
import { CHANNELS_MIGRATION } from '../../src/index.js';

export { ENGINES };

/** Starts one database for the suite (`before`), with the channels' migration applied, and stops it (`after`). */
export function useChannelsDatabase(engine: (typeof ENGINES)[number] = { name: 'PGlite', start: startPglite }): () => Database {
  let running: RunningEngine | undefined;
  let db: Database | undefined;
  before(async function () {
    this.timeout(90_000);
    const result = await engine.start();
    if (typeof result === 'string') {
      console.warn(`      skipped on ${engine.name}: ${result}`);
      this.skip();
    }
    running = result;
    db = new Database({ connection: running.connection, maxConnections: 4 });
    // Applied as an app applies it: one of its migration files, through the data package's migrator.
    await migrate(db, { migrations: [parseMigration('0003_notify_channels.sql', CHANNELS_MIGRATION)] });
  });
  after(async () => {
    await db?.end();
    await running?.stop();
    db = undefined;
    running = undefined;
  });
  return () => {
    if (!db) throw new Error(`${engine.name} is not running`);
    return db;
  };
}
