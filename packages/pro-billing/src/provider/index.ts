export * from './billing-provider.js';
export * from './usage-idempotency-key.js';
export * from './stripe/index.js';
export * from './push-pending-usage.js';
