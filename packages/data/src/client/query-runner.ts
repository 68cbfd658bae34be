import type { QueryResult as PgQueryResult } from 'pg';
import { NoRowsError, SqlUsageError, TooManyRowsError } from '../errors.js';
import { paginate, type Page, type PaginateOptions } from '../pagination/keyset.js';
import { isSqlFragment, type CompiledQuery, type SqlFragment } from '../sql/index.js';
import { mapConstraintError, mapDataException } from './pg-errors.js';

/** Bind parameters one statement may have: the wire protocol counts them in an unsigned 16-bit field. */
export const MAX_PARAMETERS = 65_535;

/** A row as `pg` returns it when no type is given. */
export type Row = Record<string, unknown>;

/** The rows of a statement and how many rows it touched. */
export interface QueryResult<R> {
  readonly rows: R[];
  /** Rows returned, or affected by INSERT/UPDATE/DELETE. */
  readonly rowCount: number;
}

export interface QueryOptions {
  /**
   * Whether the statement may run twice: when the connection dies under it, it is retried once on a new connection.
   * Only outside transactions.
   * @default - true for plain reads (SELECT, SHOW, VALUES, TABLE without FOR UPDATE/SHARE or data-changing calls)
   */
  readonly idempotent?: boolean;
  /**
   * Keep the statement parsed and planned on each connection (a named prepared statement): the next run of the same
   * text on that connection only binds and executes. For a statement of fixed text run often, whose parsing, rewriting
   * (row-level security policies) and planning cost more than running it: on PGlite a chat send's statement took
   * about three times as long unprepared. Only outside transactions (inside one it has no effect).
   * @default false
   */
  readonly prepare?: boolean;
}

/** Where log lines go: the runtime's logger, or anything with `warn`. */
export interface DataLogger {
  warn(message: string, data?: unknown): void;
}

export type IsolationLevel = 'read committed' | 'repeatable read' | 'serializable';

export interface TransactionOptions {
  /**
   * Isolation level of the transaction (ignored by nested transactions, which are savepoints of the outer one).
   * @default 'read committed' (PostgreSQL's default)
   */
  readonly isolationLevel?: IsolationLevel;
  /** Start the transaction READ ONLY. @default false */
  readonly readOnly?: boolean;
  /**
   * How many times the whole transaction is run again after a serialization failure (40001) or a deadlock (40P01),
   * or (only when `idempotent`) a lost connection, with exponential backoff. The callback runs again from the start, so keep side effects other than the database
   * out of it. Nested transactions never retry on their own: the outer one does.
   * @default 3
   */
  readonly maxRetries?: number;
  /**
   * Whether running the callback twice is harmless. When the connection dies under the transaction (server restart,
   * failover, terminated backend), an idempotent transaction is run again from the start on a new connection (within
   * `maxRetries`); otherwise it rejects with `ConnectionLostError` (`FW_ERR_DATA_CONNECTION_LOST`), whose `outcome`
   * says whether it may have committed (`unknown` when the connection died during COMMIT).
   * @default false
   */
  readonly idempotent?: boolean;
}

/** Everything that runs statements: the database itself and a transaction. */
export interface Queryable {
  /** Runs a statement built with `sql`; rows typed as `R` (not checked at run time). */
  query<R = Row>(statement: SqlFragment, options?: QueryOptions): Promise<QueryResult<R>>;
  /** Exactly one row, else `NoRowsError` / `TooManyRowsError`. */
  one<R = Row>(statement: SqlFragment, options?: QueryOptions): Promise<R>;
  /** One row or `undefined`; `TooManyRowsError` when there are several. */
  maybeOne<R = Row>(statement: SqlFragment, options?: QueryOptions): Promise<R | undefined>;
  /** Every row (possibly none). */
  many<R = Row>(statement: SqlFragment, options?: QueryOptions): Promise<R[]>;
  /** One page of a keyset-paginated query. */
  paginate<R = Row>(statement: SqlFragment, options: PaginateOptions): Promise<Page<R>>;
  /** Commits when `fn` resolves, rolls back when it throws; nested calls are savepoints. */
  transaction<T>(fn: (tx: Transaction) => Promise<T>, options?: TransactionOptions): Promise<T>;
}

/** A transaction: the same API as the database, bound to one connection until it commits or rolls back. */
export interface Transaction extends Queryable {
  /** Nesting depth: 1 for a top-level transaction, 2 for a savepoint inside it, ... */
  readonly depth: number;
}

/** The shared part of the database and transactions: statement checking, row helpers, constraint mapping. */
export abstract class QueryRunner implements Queryable {
  protected constructor(protected readonly logger: DataLogger, protected readonly mapConstraints: boolean) {}

  /** Runs the compiled statement on a connection. */
  protected abstract run(compiled: CompiledQuery, options: QueryOptions | undefined): Promise<PgQueryResult>;

  public abstract transaction<T>(fn: (tx: Transaction) => Promise<T>, options?: TransactionOptions): Promise<T>;

  public async query<R = Row>(statement: SqlFragment, options?: QueryOptions): Promise<QueryResult<R>> {
    const result = await this.execute(statement, options);
    return { rows: result.rows as R[], rowCount: result.rowCount ?? result.rows.length };
  }

  public async one<R = Row>(statement: SqlFragment, options?: QueryOptions): Promise<R> {
    const { rows } = await this.execute(statement, options);
    if (rows.length === 0) throw new NoRowsError(statement.toString());
    if (rows.length > 1) throw new TooManyRowsError(statement.toString(), rows.length);
    return rows[0] as R;
  }

  public async maybeOne<R = Row>(statement: SqlFragment, options?: QueryOptions): Promise<R | undefined> {
    const { rows } = await this.execute(statement, options);
    if (rows.length > 1) throw new TooManyRowsError(statement.toString(), rows.length);
    return rows[0] as R | undefined;
  }

  public async many<R = Row>(statement: SqlFragment, options?: QueryOptions): Promise<R[]> {
    return (await this.execute(statement, options)).rows as R[];
  }

  /** Checks and compiles the statement, runs it, and maps constraint violations. */
  private execute(statement: SqlFragment, options: QueryOptions | undefined): Promise<PgQueryResult> {
    if (!isSqlFragment(statement)) {
      // A string here would be SQL built by concatenation: refuse it rather than guess.
      return Promise.reject(new SqlUsageError(`Statements must be built with the sql tag (sql\`SELECT ...\`), got ${typeof statement}. Values go into \${...} and are sent as parameters.`));
    }
    const compiled = statement.compile();
    if (compiled.values.length > MAX_PARAMETERS) {
      // The protocol counts parameters in 16 bits: more would wrap, and the server's protocol error looks like a lost
      // connection (then a read is retried).
      return Promise.reject(
        new SqlUsageError(
          `This statement has ${compiled.values.length} parameters; PostgreSQL accepts at most ${MAX_PARAMETERS} in one statement. ` +
            'Insert or match in batches, or bind a whole array as one parameter (`= ANY(${ids})`, `SELECT * FROM unnest(${ids}::int[], ${names}::text[])`).',
        ),
      );
    }
    let running: Promise<PgQueryResult>;
    try {
      running = this.run(compiled, options);
    } catch (error) {
      return Promise.reject(error);
    }
    if (!this.mapConstraints) return running;
    return running.catch((error: unknown) => {
      const constraint = mapConstraintError(error);
      const mapped = constraint ?? mapDataException(error);
      if (!mapped) throw error;
      // The constraint names the schema, the server's message quotes the value: the log gets the names and the
      // statement (placeholders only), the client only the kind of problem.
      this.logger.warn(constraint ? 'database constraint violation' : 'database refused a value', { ...mapped.log, status: mapped.error.status, statement: compiled.text });
      throw mapped.error;
    });
  }

  public paginate<R = Row>(statement: SqlFragment, options: PaginateOptions): Promise<Page<R>> {
    return paginate<R>(this, statement, options);
  }
}

const READ = /^\s*(select|show|values|table|explain)\b/i;
const NOT_A_PURE_READ = /\b(insert|update|delete|merge|into|nextval|setval|pg_advisory\w*|for\s+(no\s+key\s+)?update|for\s+(key\s+)?share)\b/i;

/** Whether a statement only reads, so running it twice is harmless. Conservative: unsure means no. */
export function isIdempotentRead(text: string): boolean {
  return READ.test(text) && !NOT_A_PURE_READ.test(text) && !/\banalyze\b/i.test(text);
}
