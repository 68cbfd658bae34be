export * from './for-each-tenant.js';
