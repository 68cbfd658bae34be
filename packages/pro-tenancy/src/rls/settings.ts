/** The names row-level security shares between the policies (SQL) and the transaction settings (TypeScript). */
export const TENANCY_SETTINGS = {
  /** The tenant of the transaction: `set_config('app.tenant_id', <tenant>, true)`. */
  tenantId: 'app.tenant_id',
  /** `on` inside `asAllTenants`: the policies let the transaction see every tenant. */
  allTenants: 'app.all_tenants',
} as const;

/** The role requests run as (`SET LOCAL ROLE`): no BYPASSRLS, not superuser, owns no table. */
export const DEFAULT_APP_ROLE = 'fw_app';

/** The column tenant tables carry. */
export const DEFAULT_TENANT_COLUMN = 'tenant_id';

/** The name of the policy `tenantTable` creates. */
export const TENANT_POLICY = 'fw_tenant_isolation';
