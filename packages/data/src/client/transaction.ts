import type { PoolClient, QueryResult as PgQueryResult } from 'pg';
import { SqlUsageError } from '../errors.js';
import type { CompiledQuery } from '../sql/index.js';
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

/**
 * A transaction on one pooled connection. Its callbacks run statements through it; once the callback settled, the
 * transaction is closed and any further use (a forgotten `await`) fails loudly instead of running outside it.
 */
export class ConnectionTransaction extends QueryRunner implements Transaction {
  private closed = false;
  private savepoints = 0;

  constructor(
    private readonly client: PoolClient,
    public readonly depth: number,
    logger: DataLogger,
    mapConstraints: boolean,
  ) {
    super(logger, mapConstraints);
  }

  protected override run(compiled: CompiledQuery, _options: QueryOptions | undefined): Promise<PgQueryResult> {
    this.assertOpen();
    return this.client.query(compiled.text, compiled.values);
  }

  public async transaction<T>(fn: (tx: Transaction) => Promise<T>, _options?: TransactionOptions): Promise<T> {
    this.assertOpen();
    // Savepoint names come from a counter, never from input.
    const name = `fw_sp_${this.depth}_${++this.savepoints}`;
    await this.client.query(`SAVEPOINT ${name}`);
    const nested = new ConnectionTransaction(this.client, this.depth + 1, this.logger, this.mapConstraints);
    try {
      const result = await fn(nested);
      nested.close();
      await this.client.query(`RELEASE SAVEPOINT ${name}`);
      return result;
    } catch (error) {
      nested.close();
      // The callback's error is the one worth reporting; a failed ROLLBACK TO leaves the outer transaction aborted
      // anyway, so the outer level fails and rolls back too.
      await this.client.query(`ROLLBACK TO SAVEPOINT ${name}`).catch(() => undefined);
      throw error;
    }
  }

  /** @internal */
  public close(): void {
    this.closed = true;
  }

  private assertOpen(): void {
    if (this.closed) {
      throw new SqlUsageError('This transaction has already committed or rolled back. A statement was probably started without await inside the transaction callback.');
    }
  }
}
