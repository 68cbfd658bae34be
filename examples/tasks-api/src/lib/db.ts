import { databaseEnv } from '@framework/core/names';
import pg from 'pg';

/**
 * The `main` database through `pg`, from the variables core injects (FW_DB_MAIN_*). Locally `fw dev` serves it
 * (user `postgres`, no password: secret `local`). The schema is created on first use; @framework/data's migrations
 * and `service.db` replace this file.
 */
const vars = databaseEnv('main');
let pool: pg.Pool | undefined;
let schema: Promise<void> | undefined;

export function db(): pg.Pool {
  if (!pool) {
    if (process.env[vars.secretArn] !== 'local') {
      throw new Error(`${vars.secretArn} is not "local": deployed database access goes through @framework/data's service.db`);
    }
    pool = new pg.Pool({
      host: process.env[vars.host],
      port: Number(process.env[vars.port]),
      database: process.env[vars.name],
      user: 'postgres',
      max: 2,
    });
  }
  return pool;
}

export async function query<R extends pg.QueryResultRow>(text: string, params: unknown[] = []): Promise<pg.QueryResult<R>> {
  schema ??= db()
    .query(
      `CREATE TABLE IF NOT EXISTS tasks (
         id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
         owner text NOT NULL,
         title text NOT NULL,
         status text NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'done')),
         created_at timestamptz NOT NULL DEFAULT now(),
         updated_at timestamptz NOT NULL DEFAULT now()
       );
       CREATE TABLE IF NOT EXISTS task_events (
         id bigserial PRIMARY KEY,
         task_id uuid NOT NULL,
         type text NOT NULL,
         received_at timestamptz NOT NULL DEFAULT now()
       );`,
    )
    .then(() => undefined);
  schema.catch(() => (schema = undefined));
  await schema;
  return db().query<R>(text, params);
}
