export * from './auth.js';
export * from './api-key-auth.js';
export * from './trace.js';
export * from './handler-context.js';
export * from './tenant.js';
