export * from './stripe-options.js';
export * from './stripe-provider.js';
export { TENANT_METADATA_KEY } from './stripe-objects.js';
export { STRIPE_SIGNATURE_HEADER } from './verify-stripe-signature.js';
