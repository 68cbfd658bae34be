export * from './app-auth.js';
export * from './pre-token-generation-trigger.js';
export * from './preloaded-jwks.js';
