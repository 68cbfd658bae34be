export { tenantTable, type TenantTableOptions, type MigrationSql } from './tenant-table.js';
export { appRoleSql, type AppRoleOptions } from './app-role.js';
export { enableRowLevelSecurity, disableRowLevelSecurity, type RowLevelSecurityOptions } from './row-level-security.js';
export { tenantDatabase } from './tenant-database.js';
export { asAllTenants } from './as-all-tenants.js';
export { checkTenancy, assertTenancy, type CheckTenancyOptions } from './check-tenancy.js';
export { TENANCY_SETTINGS, DEFAULT_APP_ROLE, DEFAULT_TENANT_COLUMN, TENANT_POLICY } from './settings.js';
