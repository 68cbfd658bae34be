export * from './api-error.js';
export * from './route-call.js';
export * from './transport.js';
