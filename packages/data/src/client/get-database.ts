import { envToken } from '@framework/core/names';
import { DatabaseConfigError } from '../errors.js';
import { databaseTokensInEnv } from './connection-settings.js';
import { Database } from './database.js';

/**
 * One `Database` (one pool) per database intent per execution environment: created on first use, then reused by
 * every invocation the environment handles.
 */
const databases = new Map<string, Database>();

/**
 * The database of an intent, configured from its variables. Without an id: the app's only database (an error names
 * the ids to choose from when there are several).
 */
export function getDatabase(databaseId?: string, env: NodeJS.ProcessEnv = process.env): Database {
  // Keyed by the variable token so 'main-db' and 'MAIN_DB' (the same variables) share one pool.
  const key = envToken(databaseId ?? onlyDatabaseToken(env));
  let db = databases.get(key);
  if (!db) {
    db = new Database({ databaseId: key, env });
    databases.set(key, db);
  }
  return db;
}

/** Closes the pools `getDatabase` made (tests, scripts, graceful shutdown). */
export async function closeDatabases(): Promise<void> {
  const all = [...databases.values()];
  databases.clear();
  await Promise.all(all.map((db) => db.end()));
}

function onlyDatabaseToken(env: NodeJS.ProcessEnv): string {
  const tokens = databaseTokensInEnv(env);
  if (tokens.length === 1) return tokens[0] as string;
  if (tokens.length === 0) {
    throw new DatabaseConfigError('This function has no database: no FW_DB_<ID>_HOST variable is set. Declare one in infrastructure.databases of fw.config.ts (fw dev and fw deploy then set the variables).');
  }
  throw new DatabaseConfigError(`The app has ${tokens.length} databases (${tokens.join(', ')}): say which one, with service.database('<id>') or getDatabase('<id>').`);
}
