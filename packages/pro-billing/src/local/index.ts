export * from './local-stripe-options.js';
export { LocalStripe, LOCAL_STRIPE_API_KEY, LOCAL_STRIPE_WEBHOOK_SECRET, type WebhookDelivery } from './local-stripe.js';
export { addMonth, type StripeObject } from './local-stripe-state.js';
export { parseStripeForm, type FormValue } from './stripe-form.js';
export * from './local-stripe-file.js';
export { localMeteredPriceId, localMeterId, localPriceId, localStripeMeteredPriceIds, localStripePriceIds, localStripePrices } from './plan-prices.js';
