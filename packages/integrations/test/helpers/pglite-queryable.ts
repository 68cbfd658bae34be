import { PGlite } from '@electric-sql/pglite';
import type { Queryable, SqlFragment } from '@framework/data';
import { OAUTH_CONNECTIONS_MIGRATION } from '../../src/index.js';

/** An embedded PostgreSQL with the package's migration applied, behind the `query` the vault uses. */
export async function startVaultDatabase(): Promise<{ pg: PGlite; db: Pick<Queryable, 'query'>; reset(): Promise<void> }> {
  const pg = new PGlite();
  await pg.exec(OAUTH_CONNECTIONS_MIGRATION.split('-- down')[0]!);
  const db = {
    async query<R>(statement: SqlFragment) {
      const { text, values } = statement.compile();
      const result = await pg.query<R>(text, values);
      return { rows: result.rows, rowCount: result.affectedRows ?? result.rows.length };
    },
  } as Pick<Queryable, 'query'>;
  return { pg, db, reset: async () => void (await pg.exec('DELETE FROM oauth_connections; DELETE FROM oauth_pending_authorizations;')) };
}
