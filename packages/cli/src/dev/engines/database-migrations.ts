import * as path from 'node:path';
import type { DatabaseDefinition } from '@framework/core';
import { Database } from '@framework/data';
import { migrate } from '@framework/data/migrations';
import type { DevLogger } from './engine.js';

/**
 * Applies each database's pending migrations (`<rootDir>/<migrationsDir>`) when `fw dev` starts its engine, so the
 * functions find the schema they were written for. A failing migration does not stop `fw dev`: it is logged with
 * the fix (edit the file, then `fw migrate`), and the other databases still get theirs.
 */
export async function applyPendingMigrations(
  databases: readonly DatabaseDefinition[],
  ports: ReadonlyMap<string, number>,
  options: { readonly host: string; readonly rootDir: string; readonly log: DevLogger },
): Promise<void> {
  for (const database of databases) {
    const port = ports.get(database.id);
    if (port === undefined) continue;
    const db = new Database({
      connection: { host: options.host === '0.0.0.0' ? '127.0.0.1' : options.host, port, database: database.databaseName, user: 'postgres', ssl: false },
      maxConnections: 1,
      logger: { warn: (message) => options.log.warn(`databases: ${database.id}: ${message}`) },
    });
    try {
      const result = await migrate(db, {
        dir: path.join(options.rootDir, database.migrationsDir),
        onProgress: (line) => options.log.info(`databases: ${database.id}: ${line}`),
      });
      if (result.applied.length === 0 && result.alreadyApplied > 0) options.log.info(`databases: ${database.id}: ${result.alreadyApplied} migration(s), all applied`);
    } catch (error) {
      options.log.error(`databases: ${database.id}: migrations not applied: ${(error as Error).message} (fix it, then run fw migrate)`);
    } finally {
      await db.end();
    }
  }
}
