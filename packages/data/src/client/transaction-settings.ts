import pg from 'pg';
import { SqlUsageError } from '../errors.js';

/** Custom settings (`app.tenant_id`, ...) a transaction starts with: name to value. */
export type TransactionSettings = Readonly<Record<string, string>>;

/**
 * Says which settings the statements about to run need, from whatever scope the caller is in (the tenant of the
 * request, read from its async context). `undefined`: none, statements run as they always did.
 */
export type TransactionSettingsProvider = () => TransactionSettings | undefined;

// On globalThis so two copies of this package in one bundle (a handler and a library each resolving their own)
// still share the one provider the pro package registered.
const PROVIDER = Symbol.for('framework.data.transactionSettingsProvider');
type Holder = { [PROVIDER]?: TransactionSettingsProvider };

/**
 * Registers the provider (one per process; a second call replaces the first, `undefined` removes it). The seam the
 * pro tenancy package plugs row-level security into, without this package knowing about tenants: while the provider
 * returns settings, every statement of `Database` runs in a transaction whose first statement sets them with
 * `set_config(name, value, true)`, which PostgreSQL forgets at COMMIT or ROLLBACK. A pooled connection never carries
 * them into the next caller's statements (a session `SET` would).
 */
export function setTransactionSettingsProvider(provider: TransactionSettingsProvider | undefined): void {
  (globalThis as Holder)[PROVIDER] = provider;
}

/** The settings the current scope needs, or undefined when no provider is registered or it has none. */
export function currentTransactionSettings(): TransactionSettings | undefined {
  const provider = (globalThis as Holder)[PROVIDER];
  if (!provider) return undefined;
  const settings = provider();
  if (!settings) return undefined;
  for (const _ in settings) return settings;
  return undefined;
}

/**
 * A custom setting's name (`prefix.name`, as PostgreSQL requires of settings it does not know), or `role`: the
 * transaction then runs as that role (`SET LOCAL ROLE`), which is how statements of a request run as a role without
 * BYPASSRLS even when the pool logs in as the owner of the tables.
 */
const SETTING_NAME = /^(role|[a-z_][a-z0-9_]*\.[a-z_][a-z0-9_]*)$/;

/**
 * `SELECT set_config('app.tenant_id', '...', true), ...`: the statement sent right after BEGIN (in the same round
 * trip, which is why the values are escaped literals and not parameters: the simple protocol has no parameters).
 */
export function settingsStatement(settings: TransactionSettings): string {
  const calls: string[] = [];
  for (const [name, value] of Object.entries(settings)) {
    if (!SETTING_NAME.test(name)) {
      throw new SqlUsageError(`Transaction setting ${JSON.stringify(name)} is not a custom setting name; use lower-case "prefix.name" (for example "app.tenant_id"), or "role".`);
    }
    if (typeof value !== 'string' || value.includes('\u0000')) {
      throw new SqlUsageError(`Transaction setting ${name} must be a string without NUL characters.`);
    }
    calls.push(`set_config('${name}', ${pg.escapeLiteral(value)}, true)`);
  }
  return `SELECT ${calls.join(', ')}`;
}
