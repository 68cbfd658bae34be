export * from './tenants-table.js';
