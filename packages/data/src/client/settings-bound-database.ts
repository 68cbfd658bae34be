import type { QueryResult as PgQueryResult } from 'pg';
import type { CompiledQuery } from '../sql/index.js';
import { QueryRunner, type DataLogger, type QueryOptions, type Transaction, type TransactionOptions } from './query-runner.js';
import type { TransactionSettings, TransactionSettingsProvider } from './transaction-settings.js';

/** What a bound view needs of the database it runs on: its statements and transactions, with the settings given. */
export interface SettingsRunner {
  runWithSettingsOf(compiled: CompiledQuery, options: QueryOptions | undefined, settings: TransactionSettings | undefined): Promise<PgQueryResult>;
  transactionWithSettingsOf<T>(fn: (tx: Transaction) => Promise<T>, options: TransactionOptions, settings: TransactionSettings | undefined): Promise<T>;
}

/**
 * A database whose statements take their settings from a provider of their own instead of the process's
 * (`Database.withTransactionSettings`): same pool, same statements, same transactions; only where the settings come
 * from differs. Why: the process's provider reads the caller's async context, and on Node 20 entering an
 * `AsyncLocalStorage` turns promise hooks on for the whole thread (every promise after pays for them); a caller that
 * already holds its scope's settings (a WebSocket frame's tenant) passes them explicitly instead.
 */
export class SettingsBoundDatabase extends QueryRunner {
  constructor(
    private readonly database: SettingsRunner,
    private readonly settings: TransactionSettingsProvider,
    logger: DataLogger,
    mapConstraints: boolean,
  ) {
    super(logger, mapConstraints);
  }

  protected override run(compiled: CompiledQuery, options: QueryOptions | undefined): Promise<PgQueryResult> {
    return this.database.runWithSettingsOf(compiled, options, nonEmpty(this.settings()));
  }

  public override transaction<T>(fn: (tx: Transaction) => Promise<T>, options: TransactionOptions = {}): Promise<T> {
    return this.database.transactionWithSettingsOf(fn, options, nonEmpty(this.settings()));
  }
}

function nonEmpty(settings: TransactionSettings | undefined): TransactionSettings | undefined {
  if (!settings) return undefined;
  for (const _ in settings) return settings;
  return undefined;
}
