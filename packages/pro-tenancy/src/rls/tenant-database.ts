import type { Database, Queryable } from '@framework/data';
import type { TenantInfo } from '@framework/runtime';
import { rowLevelSecuritySettingsFor } from './row-level-security.js';

/**
 * `db` acting for `tenant` without an async-context scope: every statement and transaction of the result runs with
 * the settings row-level security gives that tenant (`SET LOCAL ROLE`, `app.tenant_id`), exactly those a statement
 * inside `runWithTenant(tenant, ...)` gets, read at each statement (off while row-level security is off, as there).
 * The policies in the database still decide what each statement sees; only where the tenant comes from changes.
 *
 * For a caller that holds its tenant explicitly (a WebSocket frame's, from its token) on a hot path: on Node 20,
 * entering `runWithTenant` (an `AsyncLocalStorage`) turns promise hooks on for the whole thread from then on. Code
 * that reads `currentTenant()` (the app's own hooks, storage) still needs `runWithTenant`.
 */
export function tenantDatabase(db: Database, tenant: TenantInfo): Queryable {
  const frozen: TenantInfo = Object.freeze({ id: tenant.id });
  return db.withTransactionSettings(() => rowLevelSecuritySettingsFor(frozen));
}
