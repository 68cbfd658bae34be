/**
 * `@framework/data/migrations`: SQL migration files, applied in order with a checksum record and an advisory lock.
 * Used by `fw migrate`, by the migration function deployment runs, and by tests.
 */
export { migrate, migrationStatus, rollbackMigrations, migrationLockKey } from './migrator.js';
export type { MigratorOptions, MigrateResult, MigrationStatus, MigrationState, AppliedMigration, MigrationTarget } from './migrator.js';
export { loadMigrations, sortMigrations } from './load-migrations.js';
export { parseMigration, MIGRATION_FILE, type Migration } from './migration-file.js';
export { createMigrationFile, type CreateMigrationOptions } from './create-migration.js';
