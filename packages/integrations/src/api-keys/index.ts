export * from './api-keys.js';
export * from './api-key-format.js';
export * from './api-key-hash.js';
export * from './api-key-record.js';
export { PEPPER_VARIABLE, DEV_PEPPER_FILE, loadPepper } from './pepper.js';
export type { CacheStats } from './verification-cache.js';
