export * from './migration.js';
export * from './metadata-filter.js';
export * from './vector-store.js';
