import type { PoolClient, QueryResult as PgQueryResult } from 'pg';
import { SqlUsageError, TransactionAbortedError } from '../errors.js';
import type { CompiledQuery } from '../sql/index.js';
import { IN_FAILED_TRANSACTION, sqlState } from './pg-errors.js';
import { QueryRunner, type DataLogger, type IsolationLevel, type QueryOptions, type Transaction, type TransactionOptions } from './query-runner.js';

const ISOLATION: Readonly<Record<IsolationLevel, string>> = {
  'read committed': 'READ COMMITTED',
  'repeatable read': 'REPEATABLE READ',
  'serializable': 'SERIALIZABLE',
};

/** `BEGIN ...` for the options; the level comes from a fixed table, never from the caller's text. */
export function beginStatement(options: TransactionOptions = {}): string {
  const parts = ['BEGIN'];
  if (options.isolationLevel !== undefined) {
    const level = ISOLATION[options.isolationLevel];
    if (!level) throw new SqlUsageError(`Unknown isolation level ${JSON.stringify(options.isolationLevel)}; use ${Object.keys(ISOLATION).map((l) => `'${l}'`).join(', ')}.`);
    parts.push('ISOLATION LEVEL', level);
  }
  if (options.readOnly) parts.push('READ ONLY');
  return parts.join(' ');
}

/** What the levels of one transaction (the transaction and its savepoints) share about its connection. */
interface ConnectionState {
  /** The statement error that aborted the transaction (PostgreSQL then refuses everything until a rollback). */
  abortedBy?: unknown;
}

/**
 * A transaction on one pooled connection. Its callbacks run statements through it; once the callback settled, the
 * transaction is closed and any further use (a forgotten `await`) fails loudly instead of running outside it.
 *
 * A failed statement aborts the PostgreSQL transaction. When the callback catches that error and goes on, its next
 * statement rejects with `TransactionAbortedError` (instead of the server's bare 25P02), and so does the commit (which
 * PostgreSQL answers with ROLLBACK): a rollback is never reported as success. Savepoints (`tx.transaction`) are how a
 * failure is survived.
 */
export class ConnectionTransaction extends QueryRunner implements Transaction {
  private closed = false;
  private savepoints = 0;

  constructor(
    private readonly client: PoolClient,
    public readonly depth: number,
    logger: DataLogger,
    mapConstraints: boolean,
    private readonly state: ConnectionState = {},
  ) {
    super(logger, mapConstraints);
  }

  protected override run(compiled: CompiledQuery, _options: QueryOptions | undefined): Promise<PgQueryResult> {
    this.assertOpen();
    return this.client.query(compiled.text, compiled.values).catch((error: unknown) => this.failed(error));
  }

  /** @internal Runs an already compiled statement (the database's single-statement transactions). */
  public runCompiled(compiled: CompiledQuery): Promise<PgQueryResult> {
    return this.run(compiled, undefined);
  }

  public async transaction<T>(fn: (tx: Transaction) => Promise<T>, _options?: TransactionOptions): Promise<T> {
    this.assertOpen();
    // Savepoint names come from a counter, never from input.
    const name = `fw_sp_${this.depth}_${++this.savepoints}`;
    await this.control(`SAVEPOINT ${name}`);
    const nested = new ConnectionTransaction(this.client, this.depth + 1, this.logger, this.mapConstraints, this.state);
    try {
      const result = await fn(nested);
      nested.close();
      // Refused (TransactionAbortedError) when the callback caught a failed statement: its work is rolled back below.
      await this.control(`RELEASE SAVEPOINT ${name}`);
      return result;
    } catch (error) {
      nested.close();
      // The callback's error is the one worth reporting; a failed ROLLBACK TO leaves the outer transaction aborted
      // anyway, so the outer level fails and rolls back too.
      await this.client.query(`ROLLBACK TO SAVEPOINT ${name}`).then(
        () => (this.state.abortedBy = undefined),
        () => undefined,
      );
      throw error;
    }
  }

  /**
   * @internal The error that aborted the transaction, when a statement failed and no savepoint rolled it back: the
   * commit is then answered with ROLLBACK.
   */
  public get abortedBy(): unknown {
    return this.state.abortedBy;
  }

  /** @internal */
  public close(): void {
    this.closed = true;
  }

  private control(text: string): Promise<PgQueryResult> {
    return this.client.query(text).catch((error: unknown) => this.failed(error));
  }

  private failed(error: unknown): never {
    const state = sqlState(error);
    if (state === IN_FAILED_TRANSACTION) throw new TransactionAbortedError(this.state.abortedBy);
    // Any error the server answered aborts the transaction (a lost connection has no SQLSTATE and ends it anyway).
    if (state !== undefined) this.state.abortedBy ??= error;
    throw error;
  }

  private assertOpen(): void {
    if (this.closed) {
      throw new SqlUsageError('This transaction has already committed or rolled back. A statement was probably started without await inside the transaction callback.');
    }
  }
}
