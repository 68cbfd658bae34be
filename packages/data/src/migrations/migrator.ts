import { createHash } from 'node:crypto';
import type pg from 'pg';
import type { PoolClient } from 'pg';
import { Database } from '../client/database.js';
import { LeasedConnection } from '../client/leased-connection.js';
import { isConnectionLost } from '../client/pg-errors.js';
import { ConnectionLostError, MigrationChangedError, MigrationFailedError, MigrationFileError, MigrationNoDownError } from '../errors.js';
import { sql, type SqlFragment } from '../sql/index.js';
import { loadMigrations } from './load-migrations.js';
import { hasStatements, type Migration } from './migration-file.js';

export interface MigratorOptions {
  /** Folder of the `.sql` files. Either this or `migrations`. */
  readonly dir?: string;
  /** Already-loaded migrations (tests, bundles that embed them). @default - loaded from `dir` */
  readonly migrations?: readonly Migration[];
  /**
   * Table recording applied migrations (`schema.table` allowed).
   * @default 'fw_migrations'
   */
  readonly table?: string;
  /** Progress lines (`applied 0002_add_tags.sql in 12 ms`). @default - none */
  readonly onProgress?: (message: string) => void;
}

/** A row of the migrations table. */
export interface AppliedMigration {
  readonly version: string;
  readonly name: string;
  readonly checksum: string;
  readonly appliedAt: Date;
  readonly durationMs: number;
}

export type MigrationState = 'applied' | 'pending' | 'changed' | 'missing';

export interface MigrationStatus {
  readonly version: string;
  readonly name: string;
  /** Undefined for `missing` (recorded as applied, no file any more). */
  readonly fileName?: string;
  /** `changed`: applied, but the file's checksum differs from the one recorded. */
  readonly state: MigrationState;
  readonly appliedAt?: Date;
}

export interface MigrateResult {
  /** Files applied by this run, in order. */
  readonly applied: readonly string[];
  /** Migrations that were already applied (by an earlier run, or a concurrent runner). */
  readonly alreadyApplied: number;
}

/** Something `migrate` can run on: a `Database` of this package, or a raw `pg` pool. */
export type MigrationTarget = Database | pg.Pool;

const DEFAULT_TABLE = 'fw_migrations';

/**
 * Applies pending migrations in version order, each in its own transaction together with its record. A session
 * advisory lock (keyed on the table name) makes concurrent runners (two deploys, a deploy and a developer) take turns:
 * the second one finds everything applied. Stops before applying anything when an applied file was edited.
 */
export async function migrate(target: MigrationTarget, options: MigratorOptions): Promise<MigrateResult> {
  const migrations = await resolveMigrations(options);
  const table = tableIdentifier(options.table);
  return withLockedClient(target, options.table, async (client) => {
    await run(client, sql`CREATE TABLE IF NOT EXISTS ${table} (
      version text PRIMARY KEY,
      name text NOT NULL,
      checksum text NOT NULL,
      applied_at timestamptz NOT NULL DEFAULT now(),
      duration_ms integer NOT NULL
    )`);
    const applied = await readApplied(client, table);
    assertUnchanged(migrations, applied);
    const pending = migrations.filter((m) => !applied.has(m.version));
    for (const m of pending) {
      if (!hasStatements(m.up)) throw new MigrationFileError(`Migration ${m.fileName} has no SQL above its "-- down" line: write the migration, or delete the file.`);
    }
    const done: string[] = [];
    for (const m of pending) {
      if (await applyOne(client, table, m)) {
        done.push(m.fileName);
        options.onProgress?.(`applied ${m.fileName}`);
      }
    }
    return { applied: done, alreadyApplied: migrations.length - done.length };
  });
}

/** Applied, pending, changed and missing migrations; never changes the database. */
export async function migrationStatus(target: MigrationTarget, options: MigratorOptions): Promise<MigrationStatus[]> {
  const migrations = await resolveMigrations(options);
  const table = tableIdentifier(options.table);
  const connection = await connect(target);
  const client = connection.client;
  try {
    const exists = await run(client, sql`SELECT to_regclass(${options.table ?? DEFAULT_TABLE}) IS NOT NULL AS exists`);
    const applied = exists.rows[0]?.['exists'] === true ? await readApplied(client, table) : new Map<string, AppliedMigration>();
    const result: MigrationStatus[] = migrations.map((m) => {
      const record = applied.get(m.version);
      if (!record) return { version: m.version, name: m.name, fileName: m.fileName, state: 'pending' };
      return { version: m.version, name: m.name, fileName: m.fileName, state: record.checksum === m.checksum ? 'applied' : 'changed', appliedAt: record.appliedAt };
    });
    const known = new Set(migrations.map((m) => m.version));
    for (const record of applied.values()) {
      if (!known.has(record.version)) result.push({ version: record.version, name: record.name, state: 'missing', appliedAt: record.appliedAt });
    }
    return result.sort((a, b) => (BigInt(a.version) < BigInt(b.version) ? -1 : BigInt(a.version) > BigInt(b.version) ? 1 : 0));
  } catch (error) {
    throw connection.lost || isConnectionLost(error) ? ConnectionLostError.inMigration(undefined, connection.lost ?? error) : error;
  } finally {
    connection.release();
  }
}

/** Rolls back the last `steps` applied migrations (newest first) with their `-- down` sections. */
export async function rollbackMigrations(target: MigrationTarget, options: MigratorOptions & { readonly steps?: number }): Promise<string[]> {
  const migrations = await resolveMigrations(options);
  const table = tableIdentifier(options.table);
  const steps = options.steps ?? 1;
  return withLockedClient(target, options.table, async (client) => {
    const exists = await run(client, sql`SELECT to_regclass(${options.table ?? DEFAULT_TABLE}) IS NOT NULL AS exists`);
    if (exists.rows[0]?.['exists'] !== true) return [];
    const applied = await readApplied(client, table);
    assertUnchanged(migrations, applied);
    const byVersion = new Map(migrations.map((m) => [m.version, m]));
    const newest = [...applied.values()].sort((a, b) => (BigInt(b.version) > BigInt(a.version) ? 1 : -1)).slice(0, steps);
    const targets = newest.map((record) => {
      const m = byVersion.get(record.version);
      if (!m) throw new MigrationFileError(`Applied migration ${record.version}_${record.name} has no file any more, so it cannot be rolled back.`);
      if (m.down === undefined) throw new MigrationNoDownError(m.fileName);
      return m;
    });
    const done: string[] = [];
    for (const m of targets) {
      await inTransaction(client, m, async () => {
        await client.query(m.down as string);
        await run(client, sql`DELETE FROM ${table} WHERE version = ${m.version}`);
      });
      done.push(m.fileName);
      options.onProgress?.(`rolled back ${m.fileName}`);
    }
    return done;
  });
}

async function applyOne(client: PoolClient, table: SqlFragment, m: Migration): Promise<boolean> {
  const started = performance.now();
  const record = () => run(client, sql`INSERT INTO ${table} (version, name, checksum, duration_ms) VALUES (${m.version}, ${m.name}, ${m.checksum}, ${Math.round(performance.now() - started)})`);
  if (!m.transactional) {
    if (await isRecorded(client, table, m.version)) return false;
    try {
      await client.query(m.up);
    } catch (error) {
      throw new MigrationFailedError(m.fileName, error);
    }
    await record();
    return true;
  }
  return inTransaction(client, m, async () => {
    // Checked again inside the transaction: a runner that did not get an exclusive lock (PGlite serves every socket
    // from one session, where advisory locks do not exclude) still never applies a migration twice.
    await run(client, sql`LOCK TABLE ${table} IN EXCLUSIVE MODE`);
    if (await isRecorded(client, table, m.version)) return false;
    // Simple-protocol query: the file may hold several statements. Its text is trusted (it is in the repository).
    await client.query(m.up);
    await record();
    return true;
  });
}

async function inTransaction<T>(client: PoolClient, m: Migration, fn: () => Promise<T>): Promise<T> {
  await client.query('BEGIN');
  try {
    const result = await fn();
    await client.query('COMMIT');
    return result;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error instanceof MigrationFailedError ? error : new MigrationFailedError(m.fileName, error);
  }
}

async function isRecorded(client: PoolClient, table: SqlFragment, version: string): Promise<boolean> {
  return (await run(client, sql`SELECT 1 FROM ${table} WHERE version = ${version}`)).rows.length > 0;
}

async function readApplied(client: PoolClient, table: SqlFragment): Promise<Map<string, AppliedMigration>> {
  const { rows } = await run(client, sql`SELECT version, name, checksum, applied_at, duration_ms FROM ${table}`);
  return new Map(
    rows.map((r) => [
      String(r['version']),
      { version: String(r['version']), name: String(r['name']), checksum: String(r['checksum']), appliedAt: new Date(r['applied_at'] as string), durationMs: Number(r['duration_ms']) },
    ]),
  );
}

function assertUnchanged(migrations: readonly Migration[], applied: ReadonlyMap<string, AppliedMigration>): void {
  const changed = migrations.filter((m) => {
    const record = applied.get(m.version);
    return record !== undefined && record.checksum !== m.checksum;
  });
  if (changed.length > 0) throw new MigrationChangedError(changed.map((m) => m.fileName));
}

async function resolveMigrations(options: MigratorOptions): Promise<readonly Migration[]> {
  if (options.migrations) return options.migrations;
  if (options.dir === undefined) throw new MigrationFileError('Migrations need a folder (dir) or a list of migrations.');
  return loadMigrations(options.dir);
}

function tableIdentifier(table: string = DEFAULT_TABLE): SqlFragment {
  return sql.identifier(...table.split('.'));
}

/** The advisory lock key: 64 bits of a hash of the table name, so two apps sharing a server do not block each other. */
export function migrationLockKey(table: string = DEFAULT_TABLE): string {
  return createHash('sha256').update(`framework:migrations:${table}`).digest().readBigInt64BE(0).toString();
}

async function withLockedClient<T>(target: MigrationTarget, table: string | undefined, fn: (client: PoolClient) => Promise<T>): Promise<T> {
  const connection = await connect(target);
  const client = connection.client;
  const key = migrationLockKey(table);
  let broken: Error | undefined;
  try {
    await run(client, sql`SELECT pg_advisory_lock(${key}::bigint)`);
    try {
      return await fn(client);
    } finally {
      await run(client, sql`SELECT pg_advisory_unlock(${key}::bigint)`).catch((error: Error) => (broken = error));
    }
  } catch (error) {
    // The session (and its advisory lock) is gone; what was committed is recorded, so a new run resumes from there.
    if (connection.lost || isConnectionLost(error) || isConnectionLost((error as { cause?: unknown } | undefined)?.cause)) {
      throw ConnectionLostError.inMigration(error instanceof MigrationFailedError ? error.file : undefined, connection.lost ?? error);
    }
    throw error;
  } finally {
    // A session whose unlock failed may still hold the lock: close it rather than return it to the pool.
    connection.release(broken);
  }
}

async function connect(target: MigrationTarget): Promise<LeasedConnection> {
  const pool = target instanceof Database ? await target.pool() : target;
  return LeasedConnection.take(pool);
}

function run(client: PoolClient, statement: SqlFragment): Promise<pg.QueryResult<Record<string, unknown>>> {
  return client.query(statement.compile());
}
