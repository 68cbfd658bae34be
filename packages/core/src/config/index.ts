export * from './base.js';
export * from './security.js';
export * from './environment.js';
export * from './intents.js';
export * from './resolve.js';
export { closestName } from './codec.js';
export * from './billing.js';
