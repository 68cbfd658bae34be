export * from './integrations-vault-key.js';
