import { FrameworkError } from '@framework/core/names';
import { HttpError } from '@framework/runtime';

/**
 * Errors of @framework-pro/billing. Two families, like tenancy's:
 * - HTTP answers (`BILLING_HTTP_ERROR_CODES`): what a route answers when a tenant's plan does not allow a request,
 *   each with its status; the body names the feature, the limit and the plan that allows more.
 * - `FW_ERR_BILLING_*` (`BILLING_ERROR_CODES`): the app's own mistakes (bad plans, bad arguments), thrown where made.
 *
 * README.md's error tables list every code; `test/errors.test.ts` keeps them in step.
 */
export const BILLING_HTTP_ERROR_CODES = {
  FEATURE_LIMIT_EXCEEDED: { status: 402, meaning: "The request would pass a limit of the tenant's plan (or use a feature the plan does not have), and a higher plan allows it: the body names the feature, the limit and the plan to upgrade to." },
  FEATURE_LIMIT_REACHED: { status: 403, meaning: 'The request would pass a limit that no declared plan allows more of: free some (remove seats, projects) instead.' },
  TENANT_REQUIRED: { status: 400, meaning: 'An entitlement check ran without a tenant: put the tenancy middleware before `requireFeature`, or pass the tenant.' },
  BILLING_WEBHOOK_SIGNATURE_MISSING: { status: 400, meaning: 'A provider webhook arrived without its signature header (Stripe: `Stripe-Signature`), or with one that does not parse.' },
  BILLING_WEBHOOK_TIMESTAMP_STALE: { status: 400, meaning: 'A provider webhook was signed further from now than the tolerance (default 300 s): a replay, or a far-off clock.' },
  BILLING_WEBHOOK_SIGNATURE_INVALID: { status: 401, meaning: "A provider webhook's signature does not match its raw body and the webhook secret (forged, altered, or signed with another secret)." },
  BILLING_WEBHOOK_INVALID_PAYLOAD: { status: 400, meaning: 'A correctly signed webhook whose body is not an event the adapter can read (not JSON, no id or type).' },
} as const;

export type BillingHttpErrorCode = keyof typeof BILLING_HTTP_ERROR_CODES;

export const BILLING_ERROR_CODES = {
  FW_ERR_BILLING_INVALID_PLANS: 'The plans given to `createBilling` cannot work (no plan, an unknown default plan, a price or limit that is not a whole number of minor units).',
  FW_ERR_BILLING_NO_PLANS: '`createBilling()` without `plans` found no plans in `FW_BILLING_PLANS`: declare `billing` in fw.config.ts (fw dev and the stack pass it to every function), or pass `plans` outside a function.',
  FW_ERR_BILLING_UNKNOWN_FEATURE: '`check`/`requireFeature` named a feature no plan declares (a typo): declare it on the plans, `false` where it is off.',
  FW_ERR_BILLING_INVALID_USAGE: '`track` got an event it cannot store (no tenant, a meter no plan prices or limits, a quantity that is not a whole number >= 0, no idempotency key, a bad date).',
  FW_ERR_BILLING_INVALID_CHANGE: '`applySubscriptionChange` got a change it cannot store (unknown plan, bad status, seats or dates, a version that is not a whole number).',
  FW_ERR_BILLING_PERIOD_OPEN: "`closePeriod` was asked to close a period that has not ended plus the grace window (late usage may still arrive): wait, or pass `now` in tests.",
  FW_ERR_BILLING_INVALID_PERIOD: '`closePeriod` got a period whose end is not after its start.',
  FW_ERR_BILLING_PROVIDER_OPTIONS: 'The options given to a provider adapter or to the local provider fake cannot work (no API key or webhook secret, a plan without a price, a bad tolerance).',
  FW_ERR_BILLING_UNKNOWN_PLAN: "A provider call, or a webhook's subscription, names a plan (price) the adapter does not map: add it to the adapter's `prices`.",
  FW_ERR_BILLING_USAGE: 'A usage push the provider cannot take: a quantity or sequence that is not a whole number >= 0, no customer.',
  FW_ERR_BILLING_INVOICE_MISMATCH: "A closed period's invoice total (or currency) differs from the provider's invoice for the same period: the report lists both invoices' lines (provider prices not the config's plans, usage pushed after the provider closed the period).",
  FW_ERR_BILLING_NO_CUSTOMER: 'A credit was granted with a provider for a tenant that has no customer there yet (no provider customer on its subscription snapshot).',
  FW_ERR_BILLING_PROVIDER_FAILED: "The provider refused or failed a call (network, 4xx, 5xx); `cause` carries the provider's error.",
} as const;

export type BillingErrorCode = keyof typeof BILLING_ERROR_CODES;

/** An HTTP answer of an entitlement check (402/403/400), with the shared error body. */
export class BillingHttpError extends HttpError {
  constructor(code: BillingHttpErrorCode, message: string, details?: unknown) {
    super(BILLING_HTTP_ERROR_CODES[code].status, code, message, details);
  }
}

/** A refused provider webhook (unsigned, forged, stale or unreadable): 400/401, answered before the route runs. */
export class BillingWebhookError extends BillingHttpError {}

/** A mistake in the app's use of billing (plans, arguments), found where it is made; or a failed provider call. */
export class BillingError extends FrameworkError {
  constructor(code: BillingErrorCode, message: string, options?: { readonly cause?: unknown }) {
    super(code, message, options?.cause === undefined ? undefined : { cause: options.cause });
  }
}
