/**
 * @framework-pro/billing: plans and limits declared once, entitlements answered in process, usage metered exactly
 * once, invoices that add up, a payment provider behind an adapter (Stripe shipped, a local fake for offline work).
 * See README.md for what each part guarantees.
 */
import { requireLicense } from '@framework-pro/license';

// Once per cold start (the check keeps its result): never throws, warns locally, logs loudly when deployed.
requireLicense('billing');

export * from './model.js';
export * from './errors.js';
export * from './schema/index.js';
export * from './subscriptions/index.js';
export * from './plans/index.js';
export * from './metering/index.js';
export * from './entitlements/index.js';
export * from './invoicing/index.js';
export * from './create-billing.js';
export * from './provider/index.js';
export * from './local/index.js';
export * from './webhooks/index.js';
