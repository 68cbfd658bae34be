import { Database } from '@framework/data';
import { appRoleSql, disableRowLevelSecurity, enableRowLevelSecurity } from '@framework-pro/tenancy';
import pg from 'pg';
import { CHAT_MIGRATION_STEPS, chatMigrationSql } from '../../src/index.js';
import { ENGINES, useEngine } from '../../../data/test/support/engines.js';

export { ENGINES };

const quiet = { warn: () => undefined };

/** The `up` part of a migration file's text. */
export function upSql(migration: string): string {
  return migration.split(/^-- down$/m)[0]!;
}

/**
 * A database with the chat tables and the tenancy role, as the app's migrations leave it; requests run through the
 * row-level security seam (`db`), setup and checks as the owner (`owner`). Registers its own hooks.
 */
export function useChatDatabase(engine: (typeof ENGINES)[number], connections = 4): { db(): Database; owner(): pg.Pool } {
  let db: Database | undefined;
  let owner: pg.Pool | undefined;
  after(async () => {
    disableRowLevelSecurity();
    await db?.end();
    await owner?.end();
  });
  const server = useEngine(engine);
  before(async function () {
    this.timeout(120_000);
    owner = new pg.Pool({ ...server().connection, max: 1 });
    await owner.query(appRoleSql());
    for (let step = 1; step <= CHAT_MIGRATION_STEPS; step++) await owner.query(upSql(chatMigrationSql(step)));
    db = new Database({ connection: server().connection, logger: quiet, maxConnections: connections });
    enableRowLevelSecurity();
  });
  return { db: () => db!, owner: () => owner! };
}
