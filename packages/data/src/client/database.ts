import { getRootLogger } from '@framework/runtime';
import pg from 'pg';
import type { PoolClient, PoolConfig, QueryResult as PgQueryResult } from 'pg';
import { ConnectionLostError, DatabaseConfigError, TransactionAbortedError } from '../errors.js';
import type { CompiledQuery } from '../sql/index.js';
import { connectionSettings, isDeployedLambda } from './connection-settings.js';
import { forgetDatabaseSecret } from './database-secret.js';
import { LeasedConnection } from './leased-connection.js';
import { isConnectionLost, RETRYABLE_TRANSACTION_STATES, sqlState } from './pg-errors.js';
import { QueryRunner, isIdempotentRead, type DataLogger, type QueryOptions, type Transaction, type TransactionOptions } from './query-runner.js';
import { beginStatement, ConnectionTransaction } from './transaction.js';
import { preparedStatementName } from './prepared-statement-name.js';
import { StatementWithSettings } from './statement-with-settings.js';
import { SettingsBoundDatabase, type SettingsRunner } from './settings-bound-database.js';
import { currentTransactionSettings, settingsStatement, type TransactionSettings, type TransactionSettingsProvider } from './transaction-settings.js';
import { databaseTypes } from './timestamp-parser.js';

export interface DatabaseOptions {
  /**
   * The database intent whose variables (`FW_DB_<ID>_HOST`, ...) hold the connection settings.
   * @default - none; then `connection` is required
   */
  readonly databaseId?: string;
  /**
   * Explicit `pg` pool settings (tests, scripts, benchmarks). Wins over `databaseId`.
   * @default - from the variables of `databaseId`
   */
  readonly connection?: PoolConfig;
  /**
   * Variables to read the settings from.
   * @default process.env
   */
  readonly env?: NodeJS.ProcessEnv;
  /**
   * Connections kept by the pool. A Lambda execution environment handles one event at a time, so a small pool is
   * enough there and keeps the database's connection count proportional to concurrency.
   * @default - 2 in a deployed Lambda function, 10 elsewhere
   */
  readonly maxConnections?: number;
  /**
   * Turn unique/exclusion violations into 409 and foreign-key/not-null/check violations into 422 `HttpError`s.
   * @default true
   */
  readonly mapConstraintErrors?: boolean;
  /**
   * Where warnings go (constraint names of mapped errors, retries).
   * @default - the runtime's root logger
   */
  readonly logger?: DataLogger;
}

/** First retry waits about this long; each further one twice as long, with jitter, capped at one second. */
const BACKOFF_BASE_MS = 20;
const BACKOFF_CAP_MS = 1000;

/** Time before the next attempt of a retried transaction: exponential, with full jitter so retries spread out. */
export function transactionBackoff(attempt: number, random: () => number = Math.random): number {
  const ceiling = Math.min(BACKOFF_CAP_MS, BACKOFF_BASE_MS * 2 ** attempt);
  return Math.round(ceiling / 2 + (random() * ceiling) / 2);
}

/**
 * A PostgreSQL database behind a `pg` pool: the one client for PGlite under `fw dev`, a native server, and
 * Aurora/RDS when deployed. The pool is created on first use (deployed, that is when the secret is read).
 */
export class Database extends QueryRunner implements SettingsRunner {
  private poolPromise?: Promise<pg.Pool>;
  private readyPool?: pg.Pool;
  private readonly options: DatabaseOptions;

  constructor(options: DatabaseOptions) {
    const logger = options.logger ?? getRootLogger();
    super(logger, options.mapConstraintErrors ?? true);
    if (!options.connection && options.databaseId === undefined) {
      throw new DatabaseConfigError('new Database() needs either databaseId (the database intent to read FW_DB_<ID>_* variables of) or connection (pg pool settings).');
    }
    this.options = options;
  }

  /** The underlying `pg` pool (escape hatch: LISTEN/NOTIFY, COPY, driver features this API does not cover). */
  public pool(): Promise<pg.Pool> {
    if (!this.poolPromise) {
      const pending = this.createPool();
      this.poolPromise = pending;
      pending.then(
        (pool) => {
          if (this.poolPromise === pending) this.readyPool = pool;
        },
        // A pool that could not be configured (missing variables, secret unreadable) is retried on the next call.
        () => {
          if (this.poolPromise === pending) this.poolPromise = undefined;
        },
      );
    }
    return this.poolPromise;
  }

  /**
   * A view of this database (same pool) whose statements and transactions take their settings (the tenant, the role)
   * from `settings` rather than from the process's provider (`setTransactionSettingsProvider`, which reads the
   * caller's async context). For a caller that holds its scope explicitly: `@framework-pro/tenancy`'s
   * `tenantDatabase(db, tenant)` builds one with row-level security's settings for that tenant. `settings` is called
   * for each statement and transaction; `undefined` (or no settings) runs them without any.
   */
  public withTransactionSettings(settings: TransactionSettingsProvider): SettingsBoundDatabase {
    return new SettingsBoundDatabase(this, settings, this.logger, this.mapConstraints);
  }

  protected override run(compiled: CompiledQuery, options: QueryOptions | undefined): Promise<PgQueryResult> {
    return this.runWithSettingsOf(compiled, options, currentTransactionSettings());
  }

  /** @internal One statement with `settings` (the process's, or a bound view's); the view's way in. */
  public runWithSettingsOf(compiled: CompiledQuery, options: QueryOptions | undefined, settings: TransactionSettings | undefined): Promise<PgQueryResult> {
    if (settings) {
      // Settings (the tenant) only exist inside a transaction: the statement gets one of its own, in the same round
      // trip as the settings (see StatementWithSettings).
      return this.runWithSettings(compiled, settings, options);
    }
    if (options?.prepare) return this.runPrepared(compiled, options);
    // The hot path: once the pool exists, no extra promise or async frame per statement.
    const pool = this.readyPool;
    return pool ? this.runOn(pool, compiled, options) : this.pool().then((p) => this.runOn(p, compiled, options));
  }

  private runOn(pool: pg.Pool, compiled: CompiledQuery, options: QueryOptions | undefined): Promise<PgQueryResult> {
    return pool.query(compiled.text, compiled.values).catch((error: unknown) => {
      this.afterFailure(error);
      const retry = isConnectionLost(error) && (options?.idempotent ?? isIdempotentRead(compiled.text));
      if (!retry) throw error;
      // The pool dropped the dead connection; one more try on a fresh one.
      this.logger.warn('database connection lost, retrying the read once', { error: (error as Error).message });
      return pool.query(compiled.text, compiled.values);
    });
  }

  /**
   * One statement in a transaction of its own that starts with the settings, in one round trip: no BEGIN, no COMMIT
   * (the implicit transaction of the extended protocol ends at its Sync). A lost connection is retried once when the
   * statement is an idempotent read; a lost write may or may not have committed, and says so.
   */
  private async runWithSettings(compiled: CompiledQuery, settings: TransactionSettings, options: QueryOptions | undefined): Promise<PgQueryResult> {
    // Before a connection is taken: a bad setting name throws here, with nothing to give back.
    const settingsText = settingsStatement(settings);
    return this.runLeased(compiled, options, true, (client) => {
      const name = options?.prepare ? preparedStatementName(client, compiled.text) : undefined;
      // A named statement that failed: `pg` counts it parsed once the settings' statement parsed, even when its own
      // parse failed. That connection's record of its statements can no longer be trusted, so it is not reused.
      return { result: new StatementWithSettings(settingsText, compiled.text, compiled.values, name).send(client), discardOnFailure: name !== undefined };
    });
  }

  /** A named statement without settings (`prepare`), on a leased connection: the name is the connection's own. */
  private runPrepared(compiled: CompiledQuery, options: QueryOptions): Promise<PgQueryResult> {
    return this.runLeased(compiled, options, true, (client) => ({
      result: client.query({ name: preparedStatementName(client, compiled.text), text: compiled.text, values: compiled.values as unknown[] }),
      discardOnFailure: false,
    }));
  }

  /**
   * One statement on a leased connection (rather than `pool.query`: a failed statement, a unique violation, leaves a
   * healthy connection, which goes back to the pool; only a lost one is discarded, or one `send` says is not to be
   * trusted after a failure). A lost connection is retried once when the statement is an idempotent read; a lost
   * write may or may not have committed, and says so.
   */
  private async runLeased(
    compiled: CompiledQuery,
    options: QueryOptions | undefined,
    retry: boolean,
    send: (client: PoolClient) => { result: Promise<PgQueryResult>; discardOnFailure: boolean },
  ): Promise<PgQueryResult> {
    const pool = this.readyPool ?? (await this.pool());
    const connection = await LeasedConnection.take(pool);
    let result: PgQueryResult;
    let discardOnFailure = false;
    try {
      const sent = send(connection.client);
      discardOnFailure = sent.discardOnFailure;
      result = await sent.result;
    } catch (error) {
      this.afterFailure(error);
      const lost = connection.lost ?? (isConnectionLost(error) ? error : undefined);
      const discard = lost ?? (discardOnFailure ? error : undefined);
      connection.release(discard === undefined ? undefined : discard instanceof Error ? discard : new Error(String(discard)));
      if (lost === undefined) throw error;
      const idempotent = options?.idempotent ?? isIdempotentRead(compiled.text);
      if (!idempotent) throw ConnectionLostError.inTransaction(true, false, lost);
      if (!retry) throw error;
      this.logger.warn('database connection lost, retrying the read once', { error: (lost as Error).message });
      return this.runLeased(compiled, options, false, send);
    }
    connection.release();
    return result;
  }

  public transaction<T>(fn: (tx: Transaction) => Promise<T>, options: TransactionOptions = {}): Promise<T> {
    return this.transactionWithSettingsOf(fn, options, currentTransactionSettings());
  }

  /** @internal A transaction that starts with `settings` (the process's, or a bound view's); the view's way in. */
  public async transactionWithSettingsOf<T>(fn: (tx: Transaction) => Promise<T>, options: TransactionOptions, settings: TransactionSettings | undefined): Promise<T> {
    // BEGIN and the settings in one round trip; set_config(..., true) lasts until this transaction ends.
    const begin = settings ? `${beginStatement(options)}; ${settingsStatement(settings)}` : beginStatement(options);
    const maxRetries = options.maxRetries ?? 3;
    const idempotent = options.idempotent ?? false;
    const pool = await this.pool();
    for (let attempt = 0; ; attempt++) {
      const connection = await LeasedConnection.take(pool);
      const client = connection.client;
      let broken: Error | undefined;
      let committing = false;
      const tx = new ConnectionTransaction(client, 1, this.logger, this.mapConstraints);
      try {
        await client.query(begin);
        const result = await fn(tx);
        tx.close();
        committing = true;
        const commit = await client.query('COMMIT');
        // After a failed statement PostgreSQL ends the transaction with a rollback, whatever the client asked.
        if (commit.command === 'ROLLBACK') throw new TransactionAbortedError(tx.abortedBy);
        return result;
      } catch (error) {
        tx.close();
        this.afterFailure(error);
        const lost = connection.lost ?? (isConnectionLost(error) ? error : undefined);
        if (lost !== undefined) {
          // Nothing to roll back on a dead connection (the server rolls back a session it loses); release discards it.
          broken = lost instanceof Error ? lost : new Error(String(lost));
          const failure = ConnectionLostError.inTransaction(committing && !(error instanceof TransactionAbortedError), idempotent, lost);
          if (!idempotent || attempt >= maxRetries) throw failure;
          await this.beforeRetry(attempt, maxRetries, { reason: 'connection lost', error: (lost as Error).message });
          continue;
        }
        broken = await rollback(client);
        const state = sqlState(error);
        if (state && RETRYABLE_TRANSACTION_STATES.has(state) && attempt < maxRetries) {
          await this.beforeRetry(attempt, maxRetries, { sqlState: state });
          continue;
        }
        throw error;
      } finally {
        // A connection that died, or whose rollback failed, is in an unknown state: destroy it rather than reuse it.
        connection.release(broken);
      }
    }
  }

  private async beforeRetry(attempt: number, maxRetries: number, why: Record<string, unknown>): Promise<void> {
    const delay = transactionBackoff(attempt);
    this.logger.warn('transaction retried', { ...why, attempt: attempt + 1, maxRetries, delayMs: delay });
    await new Promise((resolve) => setTimeout(resolve, delay));
  }

  /** Closes every connection. The database can be used again afterwards (a new pool is made). */
  public async end(): Promise<void> {
    const pending = this.poolPromise;
    this.poolPromise = undefined;
    this.readyPool = undefined;
    if (pending) await (await pending.catch(() => undefined))?.end();
  }

  private async createPool(): Promise<pg.Pool> {
    const env = this.options.env ?? process.env;
    let settings: PoolConfig;
    if (this.options.connection) settings = this.options.connection;
    else settings = await connectionSettings(this.options.databaseId ?? '', env);
    const pool = new pg.Pool({
      max: this.options.maxConnections ?? (isDeployedLambda(env) ? 2 : 10),
      // Idle connections are closed before the usual server/NAT idle limits; a frozen Lambda's may die anyway, which
      // the pool notices (error event) and replaces.
      idleTimeoutMillis: 60_000,
      connectionTimeoutMillis: 10_000,
      // Scripts and tests end when their work is done even if nobody calls end().
      allowExitOnIdle: true,
      // timestamptz read without pg's regular expressions (same Dates); `connection.types` replaces it.
      types: databaseTypes,
      ...settings,
    });
    // An idle connection that dies (server restart, failover) emits on the pool; without a listener Node would crash.
    pool.on('error', (error) => this.logger.warn('idle database connection closed', { error: error.message }));
    return pool;
  }

  private afterFailure(error: unknown): void {
    // 28P01 invalid_password: the secret was probably rotated; read it again on the next connection.
    if (sqlState(error) === '28P01') forgetDatabaseSecret();
  }
}

async function rollback(client: PoolClient): Promise<Error | undefined> {
  try {
    await client.query('ROLLBACK');
    return undefined;
  } catch (error) {
    return error instanceof Error ? error : new Error(String(error));
  }
}
