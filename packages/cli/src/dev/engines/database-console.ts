import * as path from 'node:path';
import { DEV_PATH_ROOT, type DatabaseDefinition } from '@framework/core';
import type { FastifyPluginAsync } from 'fastify';
import type pg from 'pg';
import { errorResponse } from '../server/gateway-response.js';
import { send } from '../server/send-response.js';

/** Rows a console query returns at most (the database stops there: the rest is never read). */
export const QUERY_ROW_CAP = 500;
/** A console query's `statement_timeout`. */
export const QUERY_TIMEOUT_MS = 5_000;
/** The dev console's database endpoints (under `/_dev/console/`, so the `/_dev` guard keeps them to this machine). */
export const DATABASE_CONSOLE_PATH = `${DEV_PATH_ROOT}/console/databases`;

/**
 * The Data tab's endpoints: `GET` each database's tables (with row counts) and migrations (applied or pending), and
 * `POST /<id>/query { sql }`, one statement run in a READ ONLY transaction with a statement timeout and a row cap,
 * then rolled back. One statement only: it is sent with the extended protocol, which refuses several, so
 * `COMMIT; DELETE ...` cannot leave the read-only transaction.
 */
export function databaseConsolePlugin(options: {
  databases: () => readonly DatabaseDefinition[];
  endpoint: (id: string) => Promise<{ host: string; port: number; database: string } | undefined>;
  rootDir: string;
}): FastifyPluginAsync {
  // One connection per console call: the tab is used now and then, and nothing stays open when fw dev stops.
  // pg loads at the console's first call, not while fw dev starts (the tab is opened now and then).
  const connect = async (id: string): Promise<pg.Pool | undefined> => {
    const at = await options.endpoint(id);
    if (!at) return undefined;
    const { default: pg } = await import('pg');
    return new pg.Pool({ host: at.host === '0.0.0.0' ? '127.0.0.1' : at.host, port: at.port, database: at.database, user: 'postgres', ssl: false, max: 1 });
  };
  return async (server) => {
    server.get(DATABASE_CONSOLE_PATH, async (request, reply) => {
      const answer = [];
      for (const database of options.databases()) {
        const pool = await connect(database.id).catch(() => undefined);
        if (!pool) {
          answer.push({ id: database.id, name: database.databaseName, error: 'the database is not running (see the fw dev console)', tables: [], migrations: [] });
          continue;
        }
        try {
          const tables = await pool.query<{ schema: string; name: string }>(
            "select table_schema as schema, table_name as name from information_schema.tables where table_type = 'BASE TABLE' and table_schema not in ('pg_catalog', 'information_schema') order by 1, 2",
          );
          const [{ default: pg }, { migrationStatus }] = await Promise.all([import('pg'), import('@framework/data/migrations')]);
          const counted = [];
          for (const table of tables.rows) {
            const rows = await pool.query<{ n: string }>(`select count(*) as n from ${pg.escapeIdentifier(table.schema)}.${pg.escapeIdentifier(table.name)}`);
            counted.push({ ...table, rows: Number(rows.rows[0]!.n) });
          }
          const migrations = await migrationStatus(pool, { dir: path.join(options.rootDir, database.migrationsDir) }).catch((error: Error) => error);
          answer.push({
            id: database.id,
            name: database.databaseName,
            tables: counted,
            migrations: migrations instanceof Error ? [] : migrations.map((m) => ({ version: m.version, name: m.name, state: m.state, appliedAt: m.appliedAt?.toISOString() ?? null })),
            ...(migrations instanceof Error ? { migrationsError: migrations.message } : {}),
          });
        } catch (error) {
          answer.push({ id: database.id, name: database.databaseName, error: (error as Error).message, tables: [], migrations: [] });
        } finally {
          await pool.end().catch(() => undefined);
        }
      }
      return reply.header('cache-control', 'no-store').send(answer);
    });

    server.post<{ Params: { id: string } }>(`${DATABASE_CONSOLE_PATH}/:id/query`, async (request, reply) => {
      const database = options.databases().find((d) => d.id === request.params.id);
      if (!database) return send(reply, errorResponse(404, 'DATABASE_NOT_FOUND', `no database "${request.params.id}" in this app`, request.id));
      let sql: unknown;
      try {
        sql = (JSON.parse((request.body as Buffer | undefined)?.toString('utf8') ?? '') as { sql?: unknown }).sql;
      } catch {
        return send(reply, errorResponse(400, 'INVALID_JSON', 'the request body is not JSON; send { "sql": "select ..." }', request.id));
      }
      if (typeof sql !== 'string' || !sql.trim()) return send(reply, errorResponse(400, 'INVALID_QUERY', 'send { "sql": "<one statement>" }', request.id));
      const pool = await connect(database.id).catch(() => undefined);
      const client = await pool?.connect().catch(() => undefined);
      if (!pool || !client) return send(reply, errorResponse(503, 'ENGINE_NOT_READY', `database ${database.id} is not running (see the fw dev console)`, request.id));
      const started = performance.now();
      const statement = sql.trim().replace(/;\s*$/, '');
      const begin = async () => {
        await client.query('begin read only');
        await client.query(`set local statement_timeout = ${QUERY_TIMEOUT_MS}`);
      };
      try {
        await begin();
        let result: pg.QueryResult;
        try {
          // A query (select, values, table, with) runs behind a cursor: the database stops after the cap.
          await client.query({ text: `declare fw_console no scroll cursor for ${statement}`, queryMode: 'extended' } as pg.QueryConfig);
          result = await client.query(`fetch ${QUERY_ROW_CAP + 1} from fw_console`);
        } catch (error) {
          if ((error as { code?: string }).code !== '42601') throw error;
          // Not a query a cursor takes (explain, show): run as it is, still one statement (the extended protocol
          // refuses several), read-only and timed.
          await client.query('rollback');
          await begin();
          result = await client.query({ text: statement, queryMode: 'extended' } as pg.QueryConfig);
        }
        const rows = (result.rows ?? []) as Record<string, unknown>[];
        return reply.header('cache-control', 'no-store').send({
          columns: (result.fields ?? []).map((f) => f.name),
          rows: rows.slice(0, QUERY_ROW_CAP),
          truncated: rows.length > QUERY_ROW_CAP,
          durationMs: performance.now() - started,
        });
      } catch (error) {
        // The database's own words: this is the developer's query on the developer's machine.
        return send(reply, errorResponse(400, 'QUERY_FAILED', `${(error as Error).message} (queries here run read-only, one statement, ${QUERY_TIMEOUT_MS / 1000} s at most, ${QUERY_ROW_CAP} rows shown)`, request.id));
      } finally {
        await client.query('rollback').catch(() => undefined);
        client.release();
        await pool.end().catch(() => undefined);
      }
    });
  };
}
