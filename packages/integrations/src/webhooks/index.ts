export * from './webhooks.js';
export * from './webhook-endpoint-store.js';
export * from './webhook-secrets-migration.js';
export * from './webhook-message.js';
export * from './webhook-secret.js';
export * from './standard-webhook-signature.js';
export * from './stripe-style-signature.js';
export * from './verify-webhook-middleware.js';
