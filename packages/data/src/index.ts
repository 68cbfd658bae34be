/**
 * @framework/data: PostgreSQL through `pg` — the `sql` tag, typed queries, transactions with savepoints and retries,
 * keyset pagination, and `service.db` in handlers. Migrations: `@framework/data/migrations`.
 */
import { registerDataService } from './service/index.js';

export * from './errors.js';
export * from './sql/index.js';
export * from './client/index.js';
export * from './pagination/index.js';
export { registerDataService } from './service/index.js';

// Importing the package (needed anyway for `sql`) is what makes `service.db` available in handlers.
registerDataService();
