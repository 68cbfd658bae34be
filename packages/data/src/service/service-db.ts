import { registerServiceExtension, type DatabaseId } from '@framework/runtime';
import type { Database } from '../client/database.js';
import { getDatabase } from '../client/get-database.js';

declare module '@framework/runtime' {
  interface Service {
    /**
     * The app's database (from `@framework/data`), when the app declares exactly one database intent. One pool per
     * execution environment, created on first use. With several databases use `service.database(id)`.
     */
    readonly db: Database;
    /**
     * The database of an intent by id (`service.database('analytics')`), for apps with several. With the generated
     * `.fw/types` only the app's database ids compile.
     */
    readonly database: (databaseId: DatabaseId) => Database;
  }
}

const dbFactory = (): Database => getDatabase();
const databaseFactory = () => (databaseId: DatabaseId): Database => getDatabase(databaseId);

/** Adds `service.db` and `service.database(id)` to the runtime's service object (done when this package loads). */
export function registerDataService(): void {
  registerServiceExtension('db', dbFactory);
  registerServiceExtension('database', databaseFactory);
}
