export * from './tenant-resolution-options.js';
export * from './resolve-tenant.js';
export * from './tenant-middleware.js';
