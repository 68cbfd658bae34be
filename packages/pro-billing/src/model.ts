/**
 * The types both halves of the package share: plans and prices (what the app declares), the subscription snapshot
 * (what the provider's webhooks and the app's plan changes write), usage events and invoices (what metering and
 * period close produce).
 *
 * Money is always an integer count of the currency's minor unit (cents for `usd`/`eur`, yen for `jpy`): never a
 * float. A unit price below one minor unit (an API call at 0.1 cent) is a decimal string of minor units (`'0.1'`),
 * computed exactly and rounded once per invoice line.
 */

// The plan types are core's (`billing` of `defineApp` validates them when the app is built): one definition, imported
// as types only, so a function bundle never loads the codecs.
import type { BillingConfig, MinorUnits } from '@framework/core';

export type {
  BillingInterval,
  FeatureLimit,
  FlatPrice,
  MeteredLimit,
  MeteredPrice,
  MinorUnits,
  PerSeatPrice,
  PlanDefinition,
  Price,
  PriceTier,
  UnitAmount,
} from '@framework/core';

/** ISO 4217 currency code, lower case (`usd`, `eur`). */
export type Currency = string;

/**
 * The app's billing declaration: `billing` of `defineApp` (core's `BillingConfig`), the same object
 * `createBilling({ plans })` takes. `graceSeconds` defaults to 3600.
 */
export type BillingPlans = BillingConfig;

/** Where a subscription stands (Stripe's statuses). */
export const SUBSCRIPTION_STATUSES = ['trialing', 'active', 'past_due', 'unpaid', 'canceled', 'incomplete', 'incomplete_expired', 'paused'] as const;
export type SubscriptionStatus = (typeof SUBSCRIPTION_STATUSES)[number];

/** Statuses whose plan applies; any other status gets the default plan's entitlements. */
export const ENTITLED_STATUSES: readonly SubscriptionStatus[] = ['trialing', 'active', 'past_due'];

/** A tenant's subscription as the entitlements read it: one row per tenant. */
export interface SubscriptionSnapshot {
  readonly tenantId: string;
  readonly planId: string;
  readonly status: SubscriptionStatus;
  readonly seats: number;
  readonly periodStart: Date;
  readonly periodEnd: Date;
  readonly trialEnd: Date | null;
  readonly providerCustomerId: string | null;
  readonly providerSubscriptionId: string | null;
  /**
   * Orders changes: a change is applied only when its version is above the stored one, so events delivered out of
   * order converge on the latest. Use the provider's event time in milliseconds (or any per-tenant increasing number).
   */
  readonly version: number;
}

/**
 * A change to a tenant's subscription: the whole new state (as a provider's subscription event carries it), the
 * version that orders it, and when it takes effect (proration splits the period there).
 */
export interface SubscriptionChange extends SubscriptionSnapshot {
  /** When the change takes effect. @default - now */
  readonly effectiveAt?: Date;
}

/** One usage event as `billing.track` stores it. */
export interface UsageEvent {
  readonly tenantId: string;
  readonly meter: string;
  /** A whole number of units (>= 0). */
  readonly quantity: number;
  /** The caller's key: the same key for the same tenant and meter counts once. */
  readonly idempotencyKey: string;
  readonly occurredAt: Date;
}

/** A billing period: `[start, end)`. */
export interface BillingPeriod {
  readonly start: Date;
  readonly end: Date;
}

export const INVOICE_LINE_KINDS = ['base', 'seats', 'usage', 'proration', 'credit'] as const;
export type InvoiceLineKind = (typeof INVOICE_LINE_KINDS)[number];

/** One line of an invoice. `amount` is the line's total (negative for credits). */
export interface InvoiceLine {
  readonly kind: InvoiceLineKind;
  readonly description: string;
  readonly quantity: number;
  /** Per unit, in minor units (a decimal string for fractions); `null` when the line is not per unit. */
  readonly unitAmount: string | null;
  readonly amount: MinorUnits;
  readonly planId: string | null;
  readonly meter: string | null;
  /** The part of the period the line covers. */
  readonly periodStart: Date;
  readonly periodEnd: Date;
  /** Why the line looks the way it does (late usage from an earlier period, proration seconds). */
  readonly note: string | null;
}

export const INVOICE_STATUSES = ['open', 'paid', 'void'] as const;
export type InvoiceStatus = (typeof INVOICE_STATUSES)[number];

/** A closed period's invoice: `subtotal` (lines before credits) + `credits` (<= 0) = `total`. */
export interface Invoice {
  readonly id: string;
  readonly tenantId: string;
  readonly number: string;
  readonly periodStart: Date;
  readonly periodEnd: Date;
  readonly currency: Currency;
  readonly planId: string;
  readonly lines: readonly InvoiceLine[];
  readonly subtotal: MinorUnits;
  readonly credits: MinorUnits;
  readonly total: MinorUnits;
  readonly status: InvoiceStatus;
  readonly providerInvoiceId: string | null;
  readonly createdAt: Date;
}
