import { identifier } from './identifiers.js';
import { DEFAULT_APP_ROLE } from './settings.js';

export interface AppRoleOptions {
  /**
   * The role's name.
   * @default 'fw_app'
   */
  readonly role?: string;
  /**
   * The schema whose tables and sequences it may read and write.
   * @default 'public'
   */
  readonly schema?: string;
}

/**
 * Migration SQL creating the role requests run as: NOSUPERUSER, NOBYPASSRLS, NOLOGIN (the pool logs in as the owner
 * and each request transaction switches with `SET LOCAL ROLE`), granted read/write on the schema's tables, present
 * and future (default privileges of the role that runs the migrations, which owns the tables and so is never the
 * role requests run as). Idempotent: a database shared by several apps may already have the role.
 */
export function appRoleSql(options: AppRoleOptions = {}): string {
  const role = identifier('Role', options.role ?? DEFAULT_APP_ROLE);
  const schema = identifier('Schema', options.schema ?? 'public');
  return [
    `DO $fw$ BEGIN`,
    `  IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = '${role}') THEN`,
    `    CREATE ROLE ${role} NOLOGIN NOSUPERUSER NOBYPASSRLS NOCREATEDB NOCREATEROLE;`,
    `  END IF;`,
    `END $fw$;`,
    // Needed where the migration user is not a superuser (RDS, Aurora): SET ROLE requires membership.
    `GRANT ${role} TO CURRENT_USER;`,
    `GRANT USAGE ON SCHEMA ${schema} TO ${role};`,
    `GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA ${schema} TO ${role};`,
    `GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA ${schema} TO ${role};`,
    `ALTER DEFAULT PRIVILEGES IN SCHEMA ${schema} GRANT SELECT, INSERT, UPDATE, DELETE ON TABLES TO ${role};`,
    `ALTER DEFAULT PRIVILEGES IN SCHEMA ${schema} GRANT USAGE, SELECT ON SEQUENCES TO ${role};`,
  ].join('\n') + '\n';
}
