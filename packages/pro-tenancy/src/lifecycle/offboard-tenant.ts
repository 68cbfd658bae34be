import { sql } from '@framework/data';
import { runWithTenant } from '@framework/runtime';
import { TenancyConfigError, TenancyHttpError } from '../errors.js';
import type { TenantLifecycleDependencies } from './onboard-tenant.js';
import type { TenantRow } from './tenants-table.js';

/** The bucket calls offboarding uses (`service.storage.<bucket>` has them). */
export interface TenantFiles {
  readonly bucket: {
    list(options?: { prefix?: string; cursor?: string }): Promise<{ objects: readonly { key: string; size: number }[]; cursor?: string }>;
    delete(key: string): Promise<void>;
    put(key: string, body: string, options?: { contentType?: string }): Promise<unknown>;
  };
  /**
   * Where a tenant's files are: the prefix the app's storage keys use for it.
   * @default (id) => `tenants/${id}/`
   */
  readonly prefixOf?: (tenantId: string) => string;
  /**
   * Where the export is written (outside the tenant's prefix, so deleting its files keeps it). `false`: not written.
   * @default (id) => `tenant-exports/${id}.json`
   */
  readonly exportKeyOf?: ((tenantId: string) => string) | false;
}

export interface OffboardTenantOptions extends TenantLifecycleDependencies {
  /** The tenant's files. @default - no files */
  readonly files?: TenantFiles;
  /** Usernames of the tenant's users (the app knows its members): disabled first, deleted at the end. @default [] */
  readonly usernames?: readonly string[];
  /**
   * Stop after disabling and exporting (rows, files and users stay): a grace period before `offboardTenant` runs
   * again to delete.
   * @default false
   */
  readonly keepData?: boolean;
}

/** What an offboarding exported: every row of every table with a `tenant_id` column, and the list of files. */
export interface TenantExport {
  readonly tenant: TenantRow;
  readonly exportedAt: string;
  readonly tables: Record<string, unknown[]>;
  readonly files: { key: string; size: number }[];
}

export interface OffboardResult {
  readonly export: TenantExport;
  readonly exportKey?: string;
  /** Rows and files deleted (0 with `keepData`). */
  readonly deletedRows: number;
  readonly deletedFiles: number;
}

const now = () => new Date().toISOString();

/** A foreign-key refusal (SQLSTATE 23503), as pg raises it or as the data package maps it. */
function isReferenceViolation(error: unknown): boolean {
  const e = error as { code?: string; cause?: { code?: string } } | undefined;
  return e?.code === '23503' || e?.code === 'REFERENCE_VIOLATION' || e?.cause?.code === '23503';
}

/** The tables of the database that hold tenant rows (a `tenant_id` column), as `schema.table`. */
async function tenantTables(db: TenantLifecycleDependencies['db']): Promise<{ schema: string; table: string }[]> {
  return db.many<{ schema: string; table: string }>(sql`
    SELECT c.table_schema AS schema, c.table_name AS table
    FROM information_schema.columns c JOIN information_schema.tables t ON t.table_schema = c.table_schema AND t.table_name = c.table_name
    WHERE c.column_name = 'tenant_id' AND t.table_type = 'BASE TABLE' AND c.table_schema NOT IN ('pg_catalog', 'information_schema')
    ORDER BY 1, 2`);
}

async function listFiles(files: TenantFiles, prefix: string): Promise<{ key: string; size: number }[]> {
  const out: { key: string; size: number }[] = [];
  let cursor: string | undefined;
  do {
    const page = await files.bucket.list({ prefix, ...(cursor ? { cursor } : {}) });
    for (const object of page.objects) out.push({ key: object.key, size: object.size });
    cursor = page.cursor;
  } while (cursor);
  return out;
}

/**
 * Offboards a tenant, step by step, each step safe to run again (a failed offboarding is resumed by calling it
 * again):
 * 1. disable: `tenants.status = 'disabled'` (`activeTenantMiddleware` then refuses its requests), its users disabled;
 *    event `tenant.disabled`;
 * 2. export: every row of every table with a `tenant_id` column and the list of its files, written to the bucket
 *    (`exportKeyOf`) and returned; event `tenant.exported`;
 * 3. delete (unless `keepData`): the rows (as the tenant, in one transaction, child tables first when foreign keys
 *    say so), the files under its prefix, the users, the quota counters and the `tenants` row; event `tenant.deleted`.
 * Throws 404 `TENANT_NOT_FOUND` for an unknown id.
 */
export async function offboardTenant(tenantId: string, options: OffboardTenantOptions): Promise<OffboardResult> {
  const { db } = options;
  const tenant = await db.maybeOne<TenantRow>(sql`UPDATE tenants SET status = 'disabled', disabled_at = COALESCE(disabled_at, now()) WHERE id = ${tenantId} RETURNING *`);
  if (!tenant) throw new TenancyHttpError('TENANT_NOT_FOUND', `No tenant "${tenantId}" in the tenants table; check the id`, { tenantId });
  for (const username of options.usernames ?? []) await options.auth?.disableUser(username);
  await options.events?.send({ type: 'tenant.disabled', tenantId, at: now() });

  const tables = await tenantTables(db);
  const prefix = options.files ? (options.files.prefixOf ?? ((id: string) => `tenants/${id}/`))(tenantId) : undefined;
  // As the tenant: row-level security (when on) shows exactly its rows, and the WHERE says the same without it.
  const exported = await runWithTenant({ id: tenantId }, async () => {
    const rows: Record<string, unknown[]> = {};
    for (const { schema, table } of tables) rows[`${schema}.${table}`] = await db.many(sql`SELECT * FROM ${sql.identifier(schema, table)} WHERE tenant_id = ${tenantId}`);
    return rows;
  });
  const files = options.files && prefix !== undefined ? await listFiles(options.files, prefix) : [];
  const document: TenantExport = { tenant, exportedAt: now(), tables: exported, files };
  const exportKeyOf = options.files?.exportKeyOf === undefined ? (id: string) => `tenant-exports/${id}.json` : options.files.exportKeyOf;
  const exportKey = options.files && exportKeyOf ? exportKeyOf(tenantId) : undefined;
  if (options.files && exportKey) await options.files.bucket.put(exportKey, JSON.stringify(document), { contentType: 'application/json' });
  const rowCount = Object.values(exported).reduce((sum, rows) => sum + rows.length, 0);
  await options.events?.send({ type: 'tenant.exported', tenantId, at: now(), ...(exportKey ? { exportKey } : {}), rows: rowCount, files: files.length });
  if (options.keepData) return { export: document, ...(exportKey ? { exportKey } : {}), deletedRows: 0, deletedFiles: 0 };

  const deletedRows = await runWithTenant({ id: tenantId }, () =>
    db.transaction(async (tx) => {
      let deleted = 0;
      let pending = [...tables];
      // A parent table's rows cannot go before the rows that reference them: each pass deletes what it can (in a
      // savepoint, so a refused DELETE does not abort the transaction) and retries the rest after the others.
      while (pending.length) {
        const refused: typeof pending = [];
        for (const entry of pending) {
          try {
            const result = await tx.transaction((inner) => inner.query(sql`DELETE FROM ${sql.identifier(entry.schema, entry.table)} WHERE tenant_id = ${tenantId}`));
            deleted += result.rowCount ?? 0;
          } catch (error) {
            if (!isReferenceViolation(error)) throw error;
            refused.push(entry);
          }
        }
        if (refused.length === pending.length) {
          throw new TenancyConfigError('FW_ERR_TENANCY_OFFBOARDING_BLOCKED', `offboarding "${tenantId}": rows of ${refused.map((t) => `${t.schema}.${t.table}`).join(', ')} are still referenced by rows outside the tenant (foreign keys); nothing was deleted. Remove those references (or make them ON DELETE CASCADE / SET NULL) and run offboardTenant again`);
        }
        pending = refused;
      }
      return deleted;
    }),
  );
  if (options.files) for (const file of files) await options.files.bucket.delete(file.key);
  for (const username of options.usernames ?? []) await options.auth?.deleteUser(username);
  await options.quotas?.forget(tenantId);
  await db.query(sql`DELETE FROM tenants WHERE id = ${tenantId}`);
  await options.events?.send({ type: 'tenant.deleted', tenantId, at: now(), rows: deletedRows, files: files.length });
  return { export: document, ...(exportKey ? { exportKey } : {}), deletedRows, deletedFiles: files.length };
}
