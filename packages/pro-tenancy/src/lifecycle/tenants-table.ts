/**
 * The `tenants` table: one row per tenant, what onboarding creates, offboarding disables and deletes, and where a
 * tenant's tier is read from. The app owns its migrations, so the package ships the SQL and the app puts it in a
 * migration file of its own (`migrations/0002_create_tenants.sql`, its text is `TENANTS_TABLE_MIGRATION`).
 *
 * The table has no `tenant_id` column (its `id` is the tenant): it lists every tenant, so row-level security checks
 * leave it alone; apps that let tenants read their own row add a policy on `id` themselves.
 */
export const TENANTS_TABLE = 'tenants';

/** The statuses a tenant goes through: `active` → `disabled` (offboarding started, requests refused) → deleted. */
export const TENANT_STATUSES = ['active', 'disabled'] as const;
export type TenantStatus = (typeof TENANT_STATUSES)[number];

/** A row of the `tenants` table as `pg` returns it. */
export interface TenantRow {
  readonly id: string;
  readonly name: string;
  readonly tier: string;
  readonly status: TenantStatus;
  readonly created_at: Date;
  readonly disabled_at: Date | null;
}

const UP = `CREATE TABLE tenants (
  id text PRIMARY KEY CHECK (id ~ '^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$'),
  name text NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
  tier text NOT NULL DEFAULT 'free',
  status text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'disabled')),
  created_at timestamptz NOT NULL DEFAULT now(),
  disabled_at timestamptz
);`;

const DOWN = 'DROP TABLE tenants;';

/** The migration file's text (up, then `-- down`), as the data package's migrator reads it. */
export const TENANTS_TABLE_MIGRATION = `-- The tenants of the app (@framework-pro/tenancy): onboarding inserts, offboarding disables and deletes.
${UP}

-- down
${DOWN}
`;
