import { BadCursorError, SqlUsageError } from '../errors.js';
import { sql, type SqlFragment } from '../sql/index.js';
import { sqlState } from '../sql/sql-state.js';

/** What paginate needs of a database or transaction (declared here, so the client does not import back). */
export interface PageSource {
  many<R>(statement: SqlFragment): Promise<R[]>;
}

/** One column of the page order. */
export interface OrderColumn {
  /** A column of the query's result (as named in its select list). */
  readonly column: string;
  /** @default 'asc' */
  readonly direction?: 'asc' | 'desc';
}

export interface PaginateOptions {
  /**
   * The page order. Together the columns must be unique and NOT NULL (end with the primary key), or rows could be
   * skipped or repeated between pages.
   */
  readonly orderBy: readonly OrderColumn[];
  /** Rows per page, 1 to 1000. @default 20 */
  readonly limit?: number;
  /** The `nextCursor` of the previous page. @default - the first page */
  readonly after?: string;
}

export interface Page<R> {
  readonly items: R[];
  /** Pass as `after` for the next page; absent on the last page. */
  readonly nextCursor?: string;
}

const MAX_LIMIT = 1000;

/** Cursor values: JSON scalars, with dates tagged so they come back as the same instant. */
type CursorValue = string | number | boolean | { readonly d: string };

/**
 * Keyset (seek) pagination: the page after a cursor is `WHERE (order columns) > (cursor values)`, which an index on
 * the order columns answers without scanning the skipped rows, unlike OFFSET. The statement is wrapped as a
 * subquery, so any query whose select list includes the order columns can be paginated. Cursor values are bound as
 * parameters; a tampered cursor can at worst select a different page, never change the statement.
 */
export async function paginate<R>(db: PageSource, statement: SqlFragment, options: PaginateOptions): Promise<Page<R>> {
  const limit = options.limit ?? 20;
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_LIMIT) throw new SqlUsageError(`paginate(): limit must be an integer from 1 to ${MAX_LIMIT}, got ${String(limit)}.`);
  const order = options.orderBy;
  if (!Array.isArray(order) || order.length === 0) throw new SqlUsageError('paginate(): orderBy needs at least one column, ending with a unique one (e.g. the primary key).');
  for (const o of order) {
    if (o.direction !== undefined && o.direction !== 'asc' && o.direction !== 'desc') throw new SqlUsageError(`paginate(): direction of "${o.column}" must be 'asc' or 'desc'.`);
  }
  const signature = order.map((o) => `${o.column}:${o.direction ?? 'asc'}`).join(',');

  const page = sql.identifier('fw_page');
  const col = (o: OrderColumn) => sql`${page}.${sql.identifier(o.column)}`;
  const orderSql = sql.join(order.map((o) => sql`${col(o)} ${o.direction === 'desc' ? sql`DESC` : sql`ASC`}`));
  const where = options.after === undefined ? sql.empty : sql`WHERE ${seekCondition(order, decodeCursor(options.after, signature, order.length))}`;

  const rows = await db.many<R>(sql`SELECT * FROM (${statement}) AS ${page} ${where} ORDER BY ${orderSql} LIMIT ${limit + 1}`).catch((error: unknown) => {
    // A value the server cannot read as its column's type (text for a timestamp, 2^63 for an integer) only comes from
    // a forged cursor: valid ones hold values read from those columns. (A bad value of the statement's own, sent with a
    // cursor, is reported the same way; on the first page it is a 422 INVALID_VALUE.)
    if (options.after !== undefined && sqlState(error)?.startsWith('22')) throw new BadCursorError(FORGED, error);
    throw error;
  });
  if (rows.length <= limit) return { items: rows };
  const items = rows.slice(0, limit);
  const last = items[items.length - 1] as Record<string, unknown>;
  return { items, nextCursor: encodeCursor(order.map((o) => cursorValue(last, o.column)), signature) };
}

/**
 * Rows after the cursor. All columns in one direction: a row comparison `(a, b) > ($1, $2)` (index friendly).
 * Mixed directions: `a > $1 OR (a = $1 AND b < $2) ...`.
 */
function seekCondition(order: readonly OrderColumn[], values: readonly unknown[]): SqlFragment {
  const page = sql.identifier('fw_page');
  const col = (o: OrderColumn) => sql`${page}.${sql.identifier(o.column)}`;
  const direction = order[0]?.direction ?? 'asc';
  if (order.every((o) => (o.direction ?? 'asc') === direction)) {
    const op = direction === 'desc' ? sql`<` : sql`>`;
    return sql`(${sql.join(order.map(col))}) ${op} (${sql.join(values)})`;
  }
  const alternatives = order.map((o, i) => {
    const equal = order.slice(0, i).map((prev, j) => sql`${col(prev)} = ${values[j]}`);
    const after = sql`${col(o)} ${(o.direction ?? 'asc') === 'desc' ? sql`<` : sql`>`} ${values[i]}`;
    return sql`(${sql.join([...equal, after], sql` AND `)})`;
  });
  return sql`(${sql.join(alternatives, sql` OR `)})`;
}

function cursorValue(row: Record<string, unknown>, column: string): CursorValue {
  const value = row[column];
  if (value instanceof Date) return { d: value.toISOString() };
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return value;
  if (typeof value === 'bigint') return value.toString();
  throw new SqlUsageError(`paginate(): column "${column}" is ${value === null ? 'NULL' : value === undefined ? 'not in the select list' : `a ${typeof value}`} in a row; order columns must be selected, NOT NULL scalars.`);
}

function encodeCursor(values: readonly CursorValue[], signature: string): string {
  return Buffer.from(JSON.stringify({ o: signature, v: values })).toString('base64url');
}

function decodeCursor(cursor: string, signature: string, width: number): unknown[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(String(cursor), 'base64url').toString('utf8'));
  } catch {
    throw new BadCursorError('The pagination cursor is malformed; pass the nextCursor of the previous page unchanged.');
  }
  const { o, v } = (parsed ?? {}) as { o?: unknown; v?: unknown };
  if (o !== signature || !Array.isArray(v) || v.length !== width) {
    throw new BadCursorError('The pagination cursor belongs to another listing or ordering; start again from the first page.');
  }
  return v.map((value: unknown) => {
    // Values the server would refuse for any column: no page query can be built on them.
    if (typeof value === 'string' && !value.includes('\0')) return value;
    if (typeof value === 'number' && Number.isFinite(value)) return value;
    if (typeof value === 'boolean') return value;
    if (value && typeof value === 'object' && typeof (value as { d?: unknown }).d === 'string') {
      const date = new Date((value as { d: string }).d);
      if (!Number.isNaN(date.getTime())) return date;
    }
    throw new BadCursorError(FORGED);
  });
}

const FORGED = 'The pagination cursor holds a value of an unexpected type; pass the nextCursor of the previous page unchanged.';
