// `@framework-pro/billing/dev-engine`: what fw dev loads from the app's dependencies when the app declares `billing`
// (and no provider key is set). Nothing here runs requireLicense or loads the package's runtime parts.
export { startLocalBilling, LOCAL_BILLING_WEBHOOK_PATH, LOCAL_BILLING_STATE_FILE, type LocalBillingEngine, type LocalBillingEngineOptions } from './local-billing-engine.js';
export { runningLocalStripe } from './running-local-stripe.js';
