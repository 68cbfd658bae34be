export * from './types.js';
export * from './run-middleware.js';
