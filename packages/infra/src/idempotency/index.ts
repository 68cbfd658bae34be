export * from './idempotency-table.js';
