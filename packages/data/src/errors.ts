import { FrameworkError } from '@framework/core/names';
import { BadRequest } from '@framework/runtime';

/**
 * Errors of @framework/data. Every error a user can hit has a stable `code`; the table in README.md lists each code
 * with its cause and fix, and `test/errors.test.ts` keeps the two in step.
 */
export const DATA_ERROR_CODES = {
  FW_ERR_DATA_NO_ROWS: 'one() found no row.',
  FW_ERR_DATA_TOO_MANY_ROWS: 'one() or maybeOne() found more than one row.',
  FW_ERR_DATA_SQL_USAGE: 'A sql helper got an argument it cannot turn into safe SQL (empty or too long identifier, empty list, string separator), or a statement has more parameters than PostgreSQL accepts.',
  FW_ERR_DATA_CONFIG: 'The database variables are missing or invalid, or the app has no (or several) databases for service.db.',
  FW_ERR_DATA_SECRET: 'The Secrets Manager secret of the database could not be read or has no username/password.',
  FW_ERR_DATA_CONNECTION_LOST: 'The connection died inside a transaction or a migration (server restart, failover, terminated backend).',
  FW_ERR_DATA_TRANSACTION_ABORTED: 'A statement of the transaction failed and its error was caught; PostgreSQL rolled the whole transaction back.',
  FW_ERR_DATA_MIGRATION_FILE: 'A migration file name has no numeric prefix, or two files share a version.',
  FW_ERR_DATA_MIGRATION_CHANGED: 'A migration that was already applied has been edited (its checksum changed).',
  FW_ERR_DATA_MIGRATION_FAILED: 'A migration\'s SQL failed; its transaction was rolled back.',
  FW_ERR_DATA_MIGRATION_NO_DOWN: 'A rollback was asked for a migration without a `-- down` section.',
  FW_ERR_DATA_DEV_NOT_RUNNING: '`fw migrate` found no running `fw dev` for the project.',
  FW_ERR_DATA_REMOTE_MIGRATION: 'The deployed migration function failed or could not be invoked.',
} as const;

export type DataErrorCode = keyof typeof DATA_ERROR_CODES;

/** Base of every error @framework/data raises on purpose. */
export class DataError extends FrameworkError {
  public override readonly code: DataErrorCode;
  constructor(code: DataErrorCode, message: string, options?: { cause?: unknown }) {
    super(code, message, options);
    this.code = code;
  }
}

/** `one()` found no row. */
export class NoRowsError extends DataError {
  constructor(statement: string) {
    super('FW_ERR_DATA_NO_ROWS', `Expected exactly one row, got none from: ${abbreviate(statement)}. Use maybeOne() when no row is a valid answer.`);
  }
}

/** `one()`/`maybeOne()` found several rows. */
export class TooManyRowsError extends DataError {
  public readonly rowCount: number;
  constructor(statement: string, rowCount: number) {
    super('FW_ERR_DATA_TOO_MANY_ROWS', `Expected at most one row, got ${rowCount} from: ${abbreviate(statement)}. Add a WHERE on a unique key or LIMIT 1, or use many().`);
    this.rowCount = rowCount;
  }
}

/** A sql helper was used in a way that cannot produce safe SQL. */
export class SqlUsageError extends DataError {
  constructor(message: string) {
    super('FW_ERR_DATA_SQL_USAGE', message);
  }
}

/** Missing or invalid connection settings. */
export class DatabaseConfigError extends DataError {
  constructor(message: string) {
    super('FW_ERR_DATA_CONFIG', message);
  }
}

/** The database secret could not be read. */
export class DatabaseSecretError extends DataError {
  constructor(message: string, cause?: unknown) {
    super('FW_ERR_DATA_SECRET', message, { cause });
  }
}

/** Whether a transaction whose connection died had committed: `rolled-back` for sure, or `unknown` (lost during COMMIT). */
export type LostTransactionOutcome = 'rolled-back' | 'unknown';

/**
 * The connection died under a transaction or a migration. The connection was discarded (never returned to the pool)
 * and the process and the pool go on. `outcome` says whether the work may have been committed; `retryable` (read by
 * the runtime's retry of transient errors) is true when running it again is safe: nothing was committed, the
 * transaction was declared idempotent, or (migrations) every migration is recorded with its own commit.
 */
export class ConnectionLostError extends DataError {
  public readonly outcome: LostTransactionOutcome;
  public readonly retryable: boolean;
  constructor(message: string, outcome: LostTransactionOutcome, retryable: boolean, cause: unknown) {
    super('FW_ERR_DATA_CONNECTION_LOST', message, { cause });
    this.outcome = outcome;
    this.retryable = retryable;
  }

  /** A transaction's connection died; `duringCommit` when the COMMIT had been sent (its answer never came). */
  public static inTransaction(duringCommit: boolean, idempotent: boolean, cause: unknown): ConnectionLostError {
    const reason = describe(cause);
    return duringCommit
      ? new ConnectionLostError(
          `The database connection was lost while the transaction was committing (${reason}): it may or may not have been committed. ` +
            'Check before doing the work again, or declare the transaction idempotent ({ idempotent: true }) so it is re-run on a new connection.',
          'unknown',
          idempotent,
          cause,
        )
      : new ConnectionLostError(
          `The database connection was lost inside the transaction (${reason}); nothing of it was committed. ` +
            'Run it again, or declare it idempotent ({ idempotent: true }) so it is re-run on a new connection.',
          'rolled-back',
          true,
          cause,
        );
  }

  /** A migration runner's connection died (the session's advisory lock went with it). */
  public static inMigration(file: string | undefined, cause: unknown): ConnectionLostError {
    const where = file === undefined ? 'while migrating' : `while applying ${file}`;
    return new ConnectionLostError(
      `The database connection was lost ${where} (${describe(cause)}). Run the migrations again: each one is recorded in the transaction that applies it, ` +
        'so the run resumes after the last one committed (a -- fw:no-transaction migration may have left partial work, e.g. an INVALID index to drop).',
      // Earlier migrations of the run are committed, the one running may be: the run as a whole is partly done.
      'unknown',
      true,
      cause,
    );
  }
}

/**
 * PostgreSQL aborts a transaction at its first failed statement: every later statement fails and `COMMIT` answers
 * `ROLLBACK`. Thrown when the callback caught such a failure and went on (the next statement) or returned (the
 * commit), instead of reporting a rollback as success. `cause` is the statement error that aborted it, when known.
 */
export class TransactionAbortedError extends DataError {
  constructor(cause: unknown) {
    const state = (cause as { code?: unknown } | undefined)?.code;
    const earlier = typeof state === 'string' ? `an earlier statement failed (SQLSTATE ${state})` : 'an earlier statement failed';
    super(
      'FW_ERR_DATA_TRANSACTION_ABORTED',
      `The transaction was rolled back and nothing of it was written: ${earlier} and its error was caught inside the callback. ` +
        'Let the error propagate, or run the statement whose failure you handle inside tx.transaction(...) (a savepoint), which rolls back only that part.',
      cause === undefined ? undefined : { cause },
    );
  }
}

/**
 * The HTTP errors this package throws (runtime `HttpError`s: a route answers with their status and code). Constraint
 * violations are mapped by the query runner (`client/pg-errors.ts`); a bad cursor comes from the client.
 */
export const DATA_HTTP_ERROR_CODES = {
  CONFLICT: { status: 409, meaning: 'A unique or exclusion constraint was violated (the constraint is named in the log only).' },
  REFERENCE_VIOLATION: { status: 422, meaning: 'A foreign-key constraint was violated.' },
  MISSING_VALUE: { status: 422, meaning: 'A NOT NULL column got no value.' },
  CHECK_VIOLATION: { status: 422, meaning: 'A CHECK constraint was violated.' },
  INVALID_CURSOR: { status: 400, meaning: 'A pagination cursor was not produced by paginate() for this listing and ordering.' },
  INVALID_TEXT: { status: 400, meaning: 'A text value holds a NUL character or bytes that are not UTF-8 (SQLSTATE 22021, 22P05).' },
  INVALID_VALUE: { status: 422, meaning: 'A value does not fit its column: invalid syntax for the type, out of range, too long (other SQLSTATE class 22 data exceptions).' },
} as const;

/** A cursor that `paginate()` did not produce (tampered, or from another ordering): 400, the client sent it. */
export class BadCursorError extends BadRequest {
  constructor(message: string, cause?: unknown) {
    super(message, { code: 'INVALID_CURSOR', ...(cause === undefined ? {} : { cause }) });
  }
}

export class MigrationFileError extends DataError {
  constructor(message: string) {
    super('FW_ERR_DATA_MIGRATION_FILE', message);
  }
}

export class MigrationChangedError extends DataError {
  public readonly files: readonly string[];
  constructor(files: readonly string[]) {
    super(
      'FW_ERR_DATA_MIGRATION_CHANGED',
      `Applied migration${files.length > 1 ? 's' : ''} ${files.join(', ')} changed since ${files.length > 1 ? 'they were' : 'it was'} applied (checksum differs). ` +
        'Never edit an applied migration: restore the file and add a new migration with the change.',
    );
    this.files = files;
  }
}

export class MigrationFailedError extends DataError {
  public readonly file: string;
  constructor(file: string, cause: unknown) {
    const reason = cause instanceof Error ? cause.message : String(cause);
    super('FW_ERR_DATA_MIGRATION_FAILED', `Migration ${file} failed and was rolled back: ${reason}. Fix the SQL and run the migrations again.`, { cause });
    this.file = file;
  }
}

export class MigrationNoDownError extends DataError {
  constructor(file: string) {
    super('FW_ERR_DATA_MIGRATION_NO_DOWN', `Migration ${file} has no "-- down" section, so it cannot be rolled back. Add one, or write a new forward migration instead.`);
  }
}

export class DevServerNotRunningError extends DataError {
  constructor(message: string) {
    super('FW_ERR_DATA_DEV_NOT_RUNNING', message);
  }
}

export class RemoteMigrationError extends DataError {
  constructor(message: string, cause?: unknown) {
    super('FW_ERR_DATA_REMOTE_MIGRATION', message, { cause });
  }
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function abbreviate(statement: string): string {
  const oneLine = statement.replace(/\s+/g, ' ').trim();
  return oneLine.length > 120 ? `${oneLine.slice(0, 117)}...` : oneLine;
}
