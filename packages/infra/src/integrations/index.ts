export * from './integrations-vault-key.js';
export * from './api-keys-pepper.js';
export * from './api-key-authorizer.js';
