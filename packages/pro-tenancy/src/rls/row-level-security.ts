import { setTransactionSettingsProvider, type TransactionSettings } from '@framework/data';
import { currentTenant } from '@framework/runtime';
import { allTenantsReason } from './all-tenants-scope.js';
import { identifier } from './identifiers.js';
import { DEFAULT_APP_ROLE, TENANCY_SETTINGS } from './settings.js';

export interface RowLevelSecurityOptions {
  /**
   * The role every statement runs as (created by `appRoleSql`).
   * @default 'fw_app'
   */
  readonly role?: string;
}

/**
 * Turns row-level security on for every `Database` of the process: each statement (and each transaction) runs in a
 * transaction that starts with `SET LOCAL ROLE <role>` and `set_config('app.tenant_id', <tenant>, true)`, the tenant
 * being the one of the running request or message (`runWithTenant`). Outside any tenant the role is still switched
 * and no tenant is set, so tenant tables show no rows: forgetting the tenant hides data, it never leaks it.
 * Inside `asAllTenants` the policies let the transaction see every tenant.
 */
export function enableRowLevelSecurity(options: RowLevelSecurityOptions = {}): void {
  const role = identifier('Role', options.role ?? DEFAULT_APP_ROLE);
  const noTenant: TransactionSettings = Object.freeze({ role });
  const allTenants: TransactionSettings = Object.freeze({ role, [TENANCY_SETTINGS.allTenants]: 'on' });
  setTransactionSettingsProvider(() => {
    const tenant = currentTenant();
    if (tenant !== undefined) return { role, [TENANCY_SETTINGS.tenantId]: tenant.id };
    if (allTenantsReason() !== undefined) return allTenants;
    return noTenant;
  });
}

/** Turns it off again (tests; a process that switches apps). */
export function disableRowLevelSecurity(): void {
  setTransactionSettingsProvider(undefined);
}
