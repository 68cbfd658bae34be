export * from './outbox-row.js';
export { NOTIFY_MIGRATION_SQL, notifyMigrationSql } from './migration.js';
export { NOTIFY_RECIPIENT_MIGRATION_SQL } from './recipient-migration.js';
export { createNotifier, type Notifier, type NotifierOptions, type Queued, type Recipient, type SendInput, type DispatchQueue, type DispatchMessage } from './notifier.js';
