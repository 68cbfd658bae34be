export * from './integrations-vault-key.js';
export * from './api-keys-pepper.js';
