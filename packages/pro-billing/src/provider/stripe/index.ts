export * from './stripe-options.js';
export * from './stripe-provider.js';
export { TENANT_METADATA_KEY } from './stripe-objects.js';
export { STRIPE_SIGNATURE_HEADER } from './verify-stripe-signature.js';
export { stripeClient, type StripeClientOptions } from './stripe-client.js';
export { stripePlanPrices, stripeLookupKey, stripeProductId, type StripePriceSpec, type StripeTierSpec } from './stripe-plan-prices.js';
export { syncStripePlans, type SyncStripePlansOptions, type SyncStripePlansResult } from './sync-stripe-plans.js';
