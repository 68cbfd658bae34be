export * from './errors.js';
export * from './verify/index.js';
export * from './pre-token-generation/scope-rules.js';
export * from './pre-token-generation/token-scopes.js';
