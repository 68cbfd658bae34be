export * from './define-tiers.js';
export * from './rate-store.js';
export * from './usage-store.js';
export * from './tier-source.js';
export * from './quotas.js';
