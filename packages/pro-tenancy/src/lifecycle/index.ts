export * from './tenants-table.js';
export * from './tenant-events.js';
export * from './onboard-tenant.js';
export * from './offboard-tenant.js';
export * from './active-tenant-middleware.js';
