/**
 * `@framework/storage`: object storage for functions. `service.storage.<bucket>` presigns uploads (S3 POST policies
 * whose signature binds key, size range and content type) and downloads, reads, writes, lists and deletes objects,
 * on S3 deployed and on the dev server's local engine under `fw dev`. The engine itself: `@framework/storage/local`.
 */
import { registerStorageService } from './service/index.js';

export * from './client/index.js';
export * from './errors.js';
export * from './events/index.js';
export * from './keys/index.js';
export * from './limits/index.js';
export * from './serving/index.js';
export { registerStorageService } from './service/index.js';

// Importing anything from the package is what makes `service.storage` available in handlers.
registerStorageService();
