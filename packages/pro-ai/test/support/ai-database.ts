import { Database } from '@framework/data';
import { migrate, parseMigration } from '@framework/data/migrations';
// The data package's engines: PGlite served on the wire protocol (as `fw dev` serves it), and a native PostgreSQL
// server started by the test (skipped, saying why, where it cannot run).
import { ENGINES, type RunningEngine } from '../../../data/test/support/engines.js';
import { aiStateMigrationSql } from '../../src/index.js';

export { ENGINES };

/** Starts one database for the suite (`before`), with the package's migration applied as an app applies it, and stops it (`after`). */
export function useAiDatabase(engine: (typeof ENGINES)[number]): () => Database {
  let running: RunningEngine | undefined;
  let db: Database | undefined;
  before(async function () {
    this.timeout(120_000);
    const result = await engine.start();
    if (typeof result === 'string') {
      console.warn(`      skipped on ${engine.name}: ${result}`);
      this.skip();
    }
    running = result;
    db = new Database({ connection: running.connection, maxConnections: 4 });
    await migrate(db, { migrations: [parseMigration('0045_ai_state.sql', aiStateMigrationSql())] });
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
