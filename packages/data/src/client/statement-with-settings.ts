import pg from 'pg';
import type { Connection } from 'pg';

/** The parts of `pg.Query` this file builds on: present at run time, not in `@types/pg`. */
interface QueryInternals {
  prepare(connection: Connection): void;
  handleDataRow(message: unknown): void;
  handleCommandComplete(message: unknown, connection: Connection): void;
}

const base = pg.Query.prototype as unknown as QueryInternals;

/**
 * One statement preceded by the statement that sets the transaction settings, sent in ONE round trip and run in ONE
 * transaction, without BEGIN or COMMIT.
 *
 * In the extended query protocol, the messages up to a Sync run in one implicit transaction, which PostgreSQL commits
 * at the Sync (or rolls back, when a statement failed). So the settings' Parse/Bind/Execute, then the statement's
 * Parse/Bind/Describe/Execute, then a single Sync: `set_config(..., true)` lasts until that Sync and no further, as in
 * an explicit transaction, and the statement is parsed (row-level security is applied when it is rewritten) after
 * the settings ran, because the server handles the messages in order. The values stay parameters.
 *
 * The settings statement answers one row and a CommandComplete before the statement's own answer (it is sent without
 * Describe, so it has no RowDescription): both are dropped here, and the caller sees the statement's result only.
 */
export class StatementWithSettings extends pg.Query {
  private settingsAnswered = false;

  constructor(
    private readonly settingsText: string,
    text: string,
    values: readonly unknown[] | undefined,
    /** A named statement's name (`QueryOptions.prepare`): parsed on the connection's first run only. */
    name?: string,
  ) {
    // `queryMode: 'extended'` (pg >= 8.8, not in @types/pg): the extended protocol even without parameters.
    const config: pg.QueryConfig & { queryMode: 'extended' } = { text, values: values as unknown[] | undefined, queryMode: 'extended', ...(name !== undefined ? { name } : {}) };
    super(config);
  }

  /** Sends it on `client` (a connection checked out of the pool); resolves with the statement's result. */
  public send(client: pg.PoolClient): Promise<pg.QueryResult> {
    return new Promise((resolve, reject) => {
      // pg calls a submittable's callback with its result (a `pg.Result`) after the ReadyForQuery of its Sync.
      (this as unknown as { callback: (error: Error | undefined, result: pg.QueryResult) => void }).callback = (error, result) => (error ? reject(error) : resolve(result));
      client.query(this);
    });
  }

  /** Called by `pg.Query.submit` with the socket corked: everything below leaves in one write. */
  protected prepare(connection: Connection): void {
    this.settingsAnswered = false;
    connection.parse({ text: this.settingsText, name: '', types: [] }, false);
    connection.bind({ portal: '', statement: '', values: [] }, false);
    connection.execute({ portal: '' }, false);
    base.prepare.call(this, connection);
  }

  protected handleDataRow(message: unknown): void {
    if (this.settingsAnswered) base.handleDataRow.call(this, message);
  }

  protected handleCommandComplete(message: unknown, connection: Connection): void {
    if (!this.settingsAnswered) {
      this.settingsAnswered = true;
      return;
    }
    base.handleCommandComplete.call(this, message, connection);
  }
}

