import { TenancyUsageError } from '../errors.js';

/** A plain, unquoted-safe identifier: what the helpers accept for tables, columns, roles and schemas. */
const IDENTIFIER = /^[a-z_][a-z0-9_$]{0,62}$/;

/** The name, checked, for SQL text the helpers write (they never quote user input into SQL). */
export function identifier(kind: string, name: string): string {
  if (typeof name !== 'string' || !IDENTIFIER.test(name)) {
    throw new TenancyUsageError(`${kind} ${JSON.stringify(name)} is not a plain lower-case identifier (letters, digits, _; at most 63 bytes). Use such a name.`);
  }
  return name;
}

/** `schema.table` or `table`, each part checked. */
export function qualifiedTable(table: string): string {
  const parts = table.split('.');
  if (parts.length > 2) throw new TenancyUsageError(`Table ${JSON.stringify(table)}: use "table" or "schema.table".`);
  return parts.map((p) => identifier('Table name part', p)).join('.');
}
