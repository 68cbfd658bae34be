import { sql, type Queryable } from '@framework/data';
import { TenancyCheckError, type TenancyProblem } from '../errors.js';
import { identifier } from './identifiers.js';
import { DEFAULT_APP_ROLE, DEFAULT_TENANT_COLUMN, TENANCY_SETTINGS } from './settings.js';

export interface CheckTenancyOptions {
  /** @default 'fw_app' */
  readonly role?: string;
  /** @default 'tenant_id' */
  readonly column?: string;
}

interface TableRow {
  schema: string;
  table: string;
  enabled: boolean;
  forced: boolean;
  policies: number;
  owner: string;
}

interface RoleRow {
  superuser: boolean;
  bypassrls: boolean;
}

/**
 * What would let one tenant see another's rows: every table with a tenant column must have row-level security
 * enabled and forced and a policy on the tenant setting; the app role must exist, be neither superuser nor
 * BYPASSRLS, and own none of those tables (an owner bypasses non-forced policies, a superuser all of them).
 * Run it as the migrations' user (the catalog is readable by anyone). An empty list means isolation holds.
 */
export async function checkTenancy(db: Queryable, options: CheckTenancyOptions = {}): Promise<TenancyProblem[]> {
  const role = identifier('Role', options.role ?? DEFAULT_APP_ROLE);
  const column = identifier('Column', options.column ?? DEFAULT_TENANT_COLUMN);
  const problems: TenancyProblem[] = [];
  const roleRow = await db.maybeOne<RoleRow>(sql`SELECT rolsuper AS superuser, rolbypassrls AS bypassrls FROM pg_roles WHERE rolname = ${role}`);
  if (!roleRow) {
    problems.push({ subject: `role ${role}`, problem: 'does not exist.', fix: 'add appRoleSql() to a migration (fw tenancy role prints it).' });
  } else {
    if (roleRow.superuser) problems.push({ subject: `role ${role}`, problem: 'is a superuser, which row-level security never applies to.', fix: `ALTER ROLE ${role} NOSUPERUSER;` });
    if (roleRow.bypassrls) problems.push({ subject: `role ${role}`, problem: 'has BYPASSRLS.', fix: `ALTER ROLE ${role} NOBYPASSRLS;` });
  }
  const tables = await db.many<TableRow>(sql`
    SELECT n.nspname AS schema, c.relname AS table, c.relrowsecurity AS enabled, c.relforcerowsecurity AS forced,
      (SELECT count(*) FROM pg_policy p
        WHERE p.polrelid = c.oid AND pg_get_expr(p.polqual, p.polrelid) LIKE ${'%' + TENANCY_SETTINGS.tenantId + '%'})::int AS policies,
      pg_get_userbyid(c.relowner) AS owner
    FROM pg_class c
    JOIN pg_namespace n ON n.oid = c.relnamespace
    JOIN pg_attribute a ON a.attrelid = c.oid AND a.attname = ${column} AND NOT a.attisdropped
    WHERE c.relkind IN ('r', 'p') AND n.nspname <> 'information_schema' AND n.nspname NOT LIKE 'pg\\_%'
    ORDER BY 1, 2`);
  for (const t of tables) {
    const subject = `${t.schema}.${t.table}`;
    if (!t.enabled) problems.push({ subject, problem: 'has a tenant column but row-level security is not enabled.', fix: `ALTER TABLE ${subject} ENABLE ROW LEVEL SECURITY; (or tenantTable('${t.table}', { addColumn: false }))` });
    if (!t.forced) problems.push({ subject, problem: 'does not FORCE row-level security: its owner is not subject to the policy.', fix: `ALTER TABLE ${subject} FORCE ROW LEVEL SECURITY;` });
    if (t.policies === 0) problems.push({ subject, problem: `has no policy on ${TENANCY_SETTINGS.tenantId}.`, fix: `add the policy of tenantTable('${t.table}', { addColumn: false }) in a migration.` });
    if (t.owner === role) problems.push({ subject, problem: `is owned by the app role ${role}.`, fix: `ALTER TABLE ${subject} OWNER TO <the migrations' user>;` });
  }
  return problems;
}

/** `checkTenancy`, throwing `TenancyCheckError` (FW_ERR_TENANCY_CHECK_FAILED) with every problem: for tests. */
export async function assertTenancy(db: Queryable, options: CheckTenancyOptions = {}): Promise<void> {
  const problems = await checkTenancy(db, options);
  if (problems.length > 0) throw new TenancyCheckError(problems);
}
