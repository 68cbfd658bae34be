export * from './migration.js';
export * from './metadata-filter.js';
export { autoEfSearch, AUTO_EF_SEARCH_ROWS_PER_STEP, MAX_EF_SEARCH, MIN_AUTO_EF_SEARCH } from './ef-search.js';
export * from './vector-store.js';
