import { BadRequest, Conflict, UnprocessableEntity, type HttpError } from '@framework/runtime';
import { SQLSTATE, sqlState } from '../sql/sql-state.js';

export { sqlState };

/** The fields of `pg`'s DatabaseError this package reads (kept structural so any pg version fits). */
export interface PgErrorFields {
  readonly code?: string;
  readonly constraint?: string;
  readonly table?: string;
  readonly column?: string;
  readonly schema?: string;
}

/** SQLSTATEs a whole transaction may be retried on: serialization_failure and deadlock_detected. */
export const RETRYABLE_TRANSACTION_STATES: ReadonlySet<string> = new Set(['40001', '40P01']);

/**
 * A connection that died under a statement: network errors, the server closing the socket, or the server shutting
 * the session down (class 08 connection exceptions, 57P01..57P03 admin/crash shutdown, cannot connect now).
 */
export function isConnectionLost(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string') {
    if (code.startsWith('08') || code === '57P01' || code === '57P02' || code === '57P03') return true;
    if (code === 'ECONNRESET' || code === 'EPIPE' || code === 'ETIMEDOUT' || code === 'ECONNREFUSED') return true;
  }
  return /Connection terminated|connection ended|Client has encountered a connection error/i.test(error.message);
}

/** What a constraint violation becomes: the HTTP error thrown, and the fields logged (never sent to the client). */
export interface MappedConstraintError {
  readonly error: HttpError;
  readonly log: Readonly<Record<string, string | undefined>>;
}

/**
 * Unique and exclusion violations are 409 CONFLICT; foreign-key, not-null and check violations are 422. The body says
 * what kind of problem it is, never which constraint, table or column (schema details stay in the log).
 */
export function mapConstraintError(error: unknown): MappedConstraintError | undefined {
  // Only the server's own error: one of ours that carries it as `cause` (already mapped, or a transaction aborted by
  // it) is not mapped a second time.
  const state = ownSqlState(error);
  if (!state || !state.startsWith('23')) return undefined;
  const fields = error as PgErrorFields;
  const log = { sqlState: state, constraint: fields.constraint, table: fields.table, column: fields.column, schema: fields.schema };
  switch (state) {
    case '23505':
      return { error: new Conflict('A record with the same unique value already exists.', { code: 'CONFLICT', cause: error }), log };
    case '23P01':
      return { error: new Conflict('The record conflicts with an existing record.', { code: 'CONFLICT', cause: error }), log };
    case '23503':
      return { error: new UnprocessableEntity('The request refers to a record that does not exist, or removes one that is still referenced.', { code: 'REFERENCE_VIOLATION', cause: error }), log };
    case '23502':
      return { error: new UnprocessableEntity('A required value is missing.', { code: 'MISSING_VALUE', cause: error }), log };
    case '23514':
      return { error: new UnprocessableEntity('A value is outside what the data allows.', { code: 'CHECK_VIOLATION', cause: error }), log };
    default:
      return undefined;
  }
}

/** in_failed_sql_transaction: a statement sent after an earlier one failed in the same transaction. */
export const IN_FAILED_TRANSACTION = '25P02';

/** character_not_in_repertoire (a NUL, invalid UTF-8) and untranslatable_character. */
const INVALID_TEXT_STATES: ReadonlySet<string> = new Set(['22021', '22P05']);

/**
 * Data exceptions (SQLSTATE class 22) come from the values a statement was given: text with a NUL or bytes that are
 * not UTF-8 is a 400 `INVALID_TEXT`; a value of the wrong syntax for its type, out of range or too long is a 422
 * `INVALID_VALUE`. The server's message quotes the value, so neither it nor the statement reaches the body or the log.
 */
export function mapDataException(error: unknown): MappedConstraintError | undefined {
  const state = ownSqlState(error);
  if (!state || !state.startsWith('22')) return undefined;
  const fields = error as PgErrorFields;
  const log = { sqlState: state, table: fields.table, column: fields.column, schema: fields.schema };
  if (INVALID_TEXT_STATES.has(state)) {
    return { error: new BadRequest('A text value contains a NUL character or bytes that are not valid UTF-8; send UTF-8 text without NUL characters.', { code: 'INVALID_TEXT', cause: error }), log };
  }
  return { error: new UnprocessableEntity(dataExceptionMessage(state), { code: 'INVALID_VALUE', cause: error }), log };
}

function dataExceptionMessage(state: string): string {
  switch (state) {
    case '22001':
      return 'A value is longer than its field allows.';
    case '22003':
    case '22008':
      return 'A value is out of the range its field allows.';
    case '22P02':
    case '22007':
      return 'A value is not in the format its field expects.';
    default:
      return 'A value is not valid for its field.';
  }
}

function ownSqlState(error: unknown): string | undefined {
  const code = error && typeof error === 'object' ? (error as { code?: unknown }).code : undefined;
  return typeof code === 'string' && SQLSTATE.test(code) ? code : undefined;
}
