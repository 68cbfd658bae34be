import type { DatabaseEndpoint, DatabaseSnapshot } from './database-snapshot.js';

/** A database of the app under test: queries and seed rows go through the harness's own connection. */
export interface TestDatabase {
  /** Where it answers (user `postgres`, no password): for a client of the test's own, `psql`, a migration tool. */
  readonly endpoint: DatabaseEndpoint;
  /** Runs SQL (`$1` parameters) and returns the rows. */
  query<R = Record<string, unknown>>(text: string, params?: readonly unknown[]): Promise<R[]>;
  /** Inserts rows into a table (columns from the objects' keys); returns them as stored (defaults filled in). */
  seed<R = Record<string, unknown>>(table: string, rows: readonly Record<string, unknown>[]): Promise<R[]>;
}

export function testDatabase(snapshot: DatabaseSnapshot): TestDatabase {
  return {
    get endpoint() {
      return snapshot.endpoint;
    },
    async query(text, params) {
      return (await (await snapshot.client()).query(text, params as unknown[] | undefined)).rows;
    },
    async seed(table, rows) {
      const name = table
        .split('.')
        .map((part) => `"${part.replace(/"/g, '""')}"`)
        .join('.');
      // One insert per set of columns: a column a row leaves out gets its default, not NULL.
      const client = await snapshot.client();
      const stored: any[] = [];
      for (const row of rows) {
        const columns = Object.keys(row).map((c) => `"${c.replace(/"/g, '""')}"`).join(', ');
        if (!columns) {
          stored.push(...(await client.query(`INSERT INTO ${name} DEFAULT VALUES RETURNING *`)).rows);
          continue;
        }
        const result = await client.query(`INSERT INTO ${name} (${columns}) SELECT ${columns} FROM json_populate_record(NULL::${name}, $1::json) RETURNING *`, [JSON.stringify(row)]);
        stored.push(...result.rows);
      }
      return stored;
    },
  };
}
