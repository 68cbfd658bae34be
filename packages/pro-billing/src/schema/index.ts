export { BILLING_MIGRATION_SQL, BILLING_TABLES, billingMigrationSql, type BillingMigrationOptions } from './billing-migration.js';
