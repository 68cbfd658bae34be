import { setTransactionSettingsProvider, type TransactionSettings } from '@framework/data';
import { currentTenant, type TenantInfo } from '@framework/runtime';
import { allTenantsReason } from './all-tenants-scope.js';
import { identifier } from './identifiers.js';
import { DEFAULT_APP_ROLE, TENANCY_SETTINGS } from './settings.js';

// On globalThis, as the data package keeps its provider: two copies of this package in one bundle share one state.
const SETTINGS_FOR = Symbol.for('framework-pro.tenancy.rowLevelSecuritySettingsFor');
type Holder = { [SETTINGS_FOR]?: (tenant: TenantInfo | undefined) => TransactionSettings };

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
  const settingsFor = (tenant: TenantInfo | undefined): TransactionSettings => {
    if (tenant !== undefined) return { role, [TENANCY_SETTINGS.tenantId]: tenant.id };
    if (allTenantsReason() !== undefined) return allTenants;
    return noTenant;
  };
  (globalThis as Holder)[SETTINGS_FOR] = settingsFor;
  setTransactionSettingsProvider(() => settingsFor(currentTenant()));
}

/** Turns it off again (tests; a process that switches apps). */
export function disableRowLevelSecurity(): void {
  (globalThis as Holder)[SETTINGS_FOR] = undefined;
  setTransactionSettingsProvider(undefined);
}

/**
 * The settings a statement of `tenant` runs with while row-level security is on (what the provider gives inside
 * `runWithTenant(tenant, ...)`), or undefined while it is off. `tenantDatabase` asks it for each statement.
 */
export function rowLevelSecuritySettingsFor(tenant: TenantInfo): TransactionSettings | undefined {
  return (globalThis as Holder)[SETTINGS_FOR]?.(tenant);
}
