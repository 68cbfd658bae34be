import { identifier, qualifiedTable } from './identifiers.js';
import { DEFAULT_TENANT_COLUMN, TENANCY_SETTINGS, TENANT_POLICY } from './settings.js';

export interface TenantTableOptions {
  /**
   * The tenant column.
   * @default 'tenant_id'
   */
  readonly column?: string;
  /**
   * Whether to add the column (false when the table was created with it).
   * @default true
   */
  readonly addColumn?: boolean;
  /**
   * Tenant given to rows that exist already (the column is NOT NULL). Without it, a table with rows fails the
   * migration, which rolls back: decide who owns them first.
   * @default - none
   */
  readonly backfillTenant?: string;
}

/** SQL of a migration, as `fw migrate` files hold it. */
export interface MigrationSql {
  readonly up: string;
  readonly down: string;
}

/**
 * The migration SQL that makes a table a tenant table: a `tenant_id` column filled from the transaction's tenant by
 * default, an index on it, row-level security enabled AND forced (without FORCE the table's owner, the role
 * migrations run as, is not subject to the policy), and one policy for every command:
 * `tenant_id = current_setting('app.tenant_id', true)` (or the `asAllTenants` escape hatch). Paste `up` above the
 * `-- down` line of a migration file and `down` below it (`fw tenancy table <name>` prints the file).
 *
 * Unique constraints of a tenant table should include `tenant_id` (two tenants may each have a task called "x").
 */
export function tenantTable(table: string, options: TenantTableOptions = {}): MigrationSql {
  const name = qualifiedTable(table);
  const column = identifier('Column', options.column ?? DEFAULT_TENANT_COLUMN);
  const index = identifier('Index', `${name.split('.').pop() as string}_${column}_idx`.slice(0, 63));
  const visible = `${column} = current_setting('${TENANCY_SETTINGS.tenantId}', true) OR current_setting('${TENANCY_SETTINGS.allTenants}', true) = 'on'`;
  const up: string[] = [];
  if (options.addColumn ?? true) {
    up.push(`ALTER TABLE ${name} ADD COLUMN ${column} text;`);
    if (options.backfillTenant !== undefined) up.push(`UPDATE ${name} SET ${column} = ${literal(options.backfillTenant)};`);
    up.push(`ALTER TABLE ${name} ALTER COLUMN ${column} SET NOT NULL;`);
  }
  up.push(
    `ALTER TABLE ${name} ALTER COLUMN ${column} SET DEFAULT current_setting('${TENANCY_SETTINGS.tenantId}', true);`,
    `CREATE INDEX ${index} ON ${name} (${column});`,
    `ALTER TABLE ${name} ENABLE ROW LEVEL SECURITY;`,
    `ALTER TABLE ${name} FORCE ROW LEVEL SECURITY;`,
    `CREATE POLICY ${TENANT_POLICY} ON ${name} USING (${visible}) WITH CHECK (${visible});`,
  );
  const down = [
    `DROP POLICY IF EXISTS ${TENANT_POLICY} ON ${name};`,
    `ALTER TABLE ${name} NO FORCE ROW LEVEL SECURITY;`,
    `ALTER TABLE ${name} DISABLE ROW LEVEL SECURITY;`,
    `DROP INDEX IF EXISTS ${index};`,
  ];
  if (options.addColumn ?? true) down.push(`ALTER TABLE ${name} DROP COLUMN ${column};`);
  else down.push(`ALTER TABLE ${name} ALTER COLUMN ${column} DROP DEFAULT;`);
  return { up: up.join('\n') + '\n', down: down.join('\n') + '\n' };
}

function literal(value: string): string {
  return `'${value.replace(/'/g, "''")}'`;
}
