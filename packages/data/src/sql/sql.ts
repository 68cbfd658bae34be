import { SqlUsageError } from '../errors.js';
import { FragmentBuilder, isSqlFragment, SqlFragment } from './sql-fragment.js';

/** What may be interpolated into `sql\`...\``: another fragment (spliced in) or any value (bound as a parameter). */
export type SqlValue = unknown;

function tag(strings: TemplateStringsArray, ...values: readonly SqlValue[]): SqlFragment {
  const builder = new FragmentBuilder();
  strings.forEach((text, i) => {
    builder.text(text);
    if (i < values.length) builder.value(values[i]);
  });
  return builder.build();
}

/** PostgreSQL's NAMEDATALEN - 1: longer identifiers are truncated by the server, with only a notice. */
export const MAX_IDENTIFIER_BYTES = 63;

function identifier(...names: readonly string[]): SqlFragment {
  if (names.length === 0) throw new SqlUsageError('sql.identifier() needs at least one name, e.g. sql.identifier("tasks") or sql.identifier("app", "tasks").');
  const quoted = names.map((name) => {
    if (typeof name !== 'string' || name.length === 0 || name.includes('\0')) {
      throw new SqlUsageError(`sql.identifier(): ${JSON.stringify(name)} is not a valid identifier (a non-empty string without NUL characters).`);
    }
    if (Buffer.byteLength(name, 'utf8') > MAX_IDENTIFIER_BYTES) {
      // PostgreSQL would silently cut it to 63 bytes, so two long names could reach the same table.
      throw new SqlUsageError(`sql.identifier(): ${JSON.stringify(name.slice(0, 80))} is ${Buffer.byteLength(name, 'utf8')} bytes long; PostgreSQL names are at most ${MAX_IDENTIFIER_BYTES} bytes (longer ones are cut, so two names could reach the same object). Use a shorter name.`);
    }
    // Double quotes are the only special character inside a quoted identifier; doubling them makes any text inert.
    return `"${name.replace(/"/g, '""')}"`;
  });
  return new SqlFragment([quoted.join('.')], []);
}

function join(items: readonly SqlValue[], separator: SqlFragment = new SqlFragment([', '], [])): SqlFragment {
  if (!isSqlFragment(separator)) {
    throw new SqlUsageError('sql.join(): the separator must be a fragment such as sql` AND `, not a string, so that no text built at run time becomes SQL.');
  }
  const builder = new FragmentBuilder();
  items.forEach((item, i) => {
    if (i > 0) builder.fragment(separator);
    builder.value(item);
  });
  return builder.build();
}

function list(values: readonly SqlValue[]): SqlFragment {
  if (!Array.isArray(values) || values.length === 0) {
    throw new SqlUsageError('sql.list() needs a non-empty array: "IN ()" is not valid SQL. For a list that may be empty use "= ANY(${array})", which binds the whole array as one parameter.');
  }
  return join(values);
}

function values(rows: readonly (readonly SqlValue[])[]): SqlFragment {
  if (!Array.isArray(rows) || rows.length === 0) throw new SqlUsageError('sql.values() needs at least one row, e.g. sql.values([[1, "a"], [2, "b"]]).');
  const width = rows[0]?.length ?? 0;
  if (width === 0 || rows.some((row) => !Array.isArray(row) || row.length !== width)) {
    throw new SqlUsageError(`sql.values(): every row must be a non-empty array of the same length (the first has ${width}).`);
  }
  return join(rows.map((row) => tag`(${list(row)})`));
}

function json(value: unknown): SqlFragment {
  // pg sends a JS array as a PostgreSQL array; JSON text lets arrays and scalars reach json/jsonb columns intact.
  return tag`${JSON.stringify(value)}`;
}

function unsafeRaw(text: string): SqlFragment {
  if (typeof text !== 'string') throw new SqlUsageError('sql.unsafeRaw() takes a string of SQL.');
  return new SqlFragment([text], []);
}

/** The SQL tag and its helpers. */
export interface Sql {
  /** A parameterized statement: every interpolated value is a bind parameter, every interpolated fragment is spliced. */
  (strings: TemplateStringsArray, ...values: readonly SqlValue[]): SqlFragment;
  /** A quoted identifier (`"tasks"`, `"app"."tasks"`): for table or column names chosen at run time. */
  identifier(...names: readonly string[]): SqlFragment;
  /** Items separated by `separator` (a fragment, default `, `); items that are not fragments become parameters. */
  join(items: readonly SqlValue[], separator?: SqlFragment): SqlFragment;
  /** `$1, $2, $3` for `IN (...)`; throws on an empty array (use `= ANY(${array})` for lists that may be empty). */
  list(values: readonly SqlValue[]): SqlFragment;
  /** `($1, $2), ($3, $4)` for multi-row `INSERT ... VALUES`. */
  values(rows: readonly (readonly SqlValue[])[]): SqlFragment;
  /** A value as JSON text, for json/jsonb columns (arrays included). */
  json(value: unknown): SqlFragment;
  /** An empty fragment, for optional clauses. */
  readonly empty: SqlFragment;
  /**
   * Text used as SQL as it is. UNSAFE: never pass anything derived from input. For SQL kept in files (migrations) or
   * built from a fixed set of choices (`unsafeRaw(desc ? 'DESC' : 'ASC')`).
   */
  unsafeRaw(text: string): SqlFragment;
}

/**
 * ```ts
 * const task = await db.one<Task>(sql`SELECT * FROM tasks WHERE id = ${id} AND owner = ${owner}`);
 * await db.query(sql`SELECT * FROM ${sql.identifier(table)} WHERE status IN (${sql.list(statuses)})`);
 * ```
 */
export const sql: Sql = Object.assign(tag, {
  identifier,
  join,
  list,
  values,
  json,
  empty: new SqlFragment([''], []),
  unsafeRaw,
});
