/**
 * `@framework/data/migrate-handler`: the Lambda function that applies a database's migrations in a deployed stage
 * (deployed name: core's `migrationFunctionName(project, stage, databaseId)`). Two callers:
 *
 * - deployment, through a CloudFormation custom resource (CDK `custom_resources.Provider` with this function as its
 *   `onEventHandler`): Create and Update apply pending migrations, Delete does nothing (the data outlives the stack);
 * - `fw migrate --stage <stage>`, which invokes it directly with `{ action: 'apply' | 'status' }`.
 *
 * The migrations are bundled next to the handler, in `migrations/` at the root of the function's code.
 */
import * as path from 'node:path';
import { databaseTokensInEnv } from './client/connection-settings.js';
import { getDatabase } from './client/get-database.js';
import { DatabaseConfigError } from './errors.js';
import { migrate, migrationStatus, type MigrationStatus } from './migrations/index.js';

/** A direct invocation (from `fw migrate --stage`). */
export interface MigrationCommand {
  /** @default 'apply' */
  readonly action?: 'apply' | 'status';
  /** Database intent id. @default - the function's only database */
  readonly database?: string;
}

/** The custom resource event, as the CDK provider framework passes it to its `onEventHandler`. */
export interface MigrationResourceEvent {
  readonly RequestType: 'Create' | 'Update' | 'Delete';
  readonly PhysicalResourceId?: string;
  readonly ResourceProperties: {
    /** Database intent id. */
    readonly DatabaseId?: string;
    /** Any value that changes with the migration files (a hash), so that deployment runs them when they change. */
    readonly MigrationsHash?: string;
    readonly [key: string]: unknown;
  };
}

export interface MigrationCommandResult {
  readonly database: string;
  readonly applied?: readonly string[];
  readonly alreadyApplied?: number;
  readonly status?: readonly MigrationStatus[];
}

export interface MigrationResourceResult {
  readonly PhysicalResourceId: string;
  readonly Data: { readonly Applied: number; readonly AppliedFiles: string };
}

export interface MigrationHandlerOptions {
  /**
   * Folder of the bundled `.sql` files.
   * @default - `migrations` in the function's code root (`LAMBDA_TASK_ROOT`), else in the current directory
   */
  readonly migrationsDir?: string;
  /**
   * Progress lines (one per applied file).
   * @default - console.log (CloudWatch Logs)
   */
  readonly log?: (line: string) => void;
}

export function createMigrationHandler(options: MigrationHandlerOptions = {}) {
  const log = options.log ?? ((line: string) => console.log(line));
  const dir = options.migrationsDir ?? path.join(process.env['LAMBDA_TASK_ROOT'] ?? process.cwd(), 'migrations');
  return async function migrationHandler(event: MigrationCommand | MigrationResourceEvent): Promise<MigrationCommandResult | MigrationResourceResult> {
    if (isResourceEvent(event)) {
      const databaseId = event.ResourceProperties.DatabaseId ?? onlyDatabase();
      const physicalId = event.PhysicalResourceId ?? `fw-migrations-${databaseId}`;
      // Deleting the stack (or replacing the resource) must never touch the schema.
      if (event.RequestType === 'Delete') return { PhysicalResourceId: physicalId, Data: { Applied: 0, AppliedFiles: '' } };
      const result = await migrate(getDatabase(databaseId), { dir, onProgress: log });
      return { PhysicalResourceId: physicalId, Data: { Applied: result.applied.length, AppliedFiles: result.applied.join(',') } };
    }
    const databaseId = event.database ?? onlyDatabase();
    const db = getDatabase(databaseId);
    if ((event.action ?? 'apply') === 'status') return { database: databaseId, status: await migrationStatus(db, { dir }) };
    const result = await migrate(db, { dir, onProgress: log });
    return { database: databaseId, applied: result.applied, alreadyApplied: result.alreadyApplied };
  };
}

function isResourceEvent(event: unknown): event is MigrationResourceEvent {
  return typeof event === 'object' && event !== null && 'RequestType' in event;
}

function onlyDatabase(): string {
  const tokens = databaseTokensInEnv();
  if (tokens.length !== 1) {
    throw new DatabaseConfigError(`The migration function needs the database id (ResourceProperties.DatabaseId or { database }): it sees ${tokens.length} databases (${tokens.join(', ') || 'none'}).`);
  }
  return tokens[0] as string;
}

/** The handler deployment wires up (`migrate-handler.main`). */
export const main = createMigrationHandler();
