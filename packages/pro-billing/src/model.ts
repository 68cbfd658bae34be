/**
 * The types both halves of the package share: plans and prices (what the app declares), the subscription snapshot
 * (what the provider's webhooks and the app's plan changes write), usage events and invoices (what metering and
 * period close produce).
 *
 * Money is always an integer count of the currency's minor unit (cents for `usd`/`eur`, yen for `jpy`): never a
 * float. A unit price below one minor unit (an API call at 0.1 cent) is a decimal string of minor units (`'0.1'`),
 * computed exactly and rounded once per invoice line.
 */

/** An amount in the currency's minor unit (cents): a safe integer. */
export type MinorUnits = number;

/**
 * A unit price in minor units: an integer (`2` = 2 cents a unit), or a decimal string for fractions of a minor unit
 * (`'0.1'` = a tenth of a cent a unit; at most 12 decimals).
 */
export type UnitAmount = number | string;

/** ISO 4217 currency code, lower case (`usd`, `eur`). */
export type Currency = string;

/** How often a plan's flat and per-seat prices are charged. */
export type BillingInterval = 'month' | 'year';

/** One step of a graduated price: the units up to `upTo` (inclusive, counted from the previous step) cost `unitAmount` each. */
export interface PriceTier {
  /** The last unit of this tier; `'inf'` for the last tier. */
  readonly upTo: number | 'inf';
  readonly unitAmount: UnitAmount;
  /** Charged once when any unit falls in this tier. @default 0 */
  readonly flatAmount?: MinorUnits;
}

/** A fixed amount per period. */
export interface FlatPrice {
  readonly kind: 'flat';
  readonly amount: MinorUnits;
}

/** An amount per seat per period (the subscription's `seats`). */
export interface PerSeatPrice {
  readonly kind: 'per_seat';
  readonly unitAmount: MinorUnits;
  /** Seats the plan includes before any seat is charged. @default 0 */
  readonly includedSeats?: number;
}

/** Usage of a meter in the period, priced with graduated tiers (each unit at the price of the tier it falls in). */
export interface MeteredPrice {
  readonly kind: 'metered';
  /** The meter `billing.track` counts (`api_calls`). */
  readonly meter: string;
  readonly tiers: readonly PriceTier[];
}

export type Price = FlatPrice | PerSeatPrice | MeteredPrice;

/** A metered feature: `included` units per period, then `overage` per unit (none: a hard limit at `included`). */
export interface MeteredLimit {
  readonly included: number;
  /** Price of each unit past `included`, in minor units. @default - none: usage past `included` is refused */
  readonly overage?: UnitAmount;
}

/**
 * What a plan allows of a feature: `true`/`false` (on or off), a whole number (a hard limit: `seats: 5`,
 * `projects: 10`), or a metered allowance (`api_calls: { included: 10000, overage: '0.1' }`).
 */
export type FeatureLimit = boolean | number | MeteredLimit;

/** A plan as the app declares it. */
export interface PlanDefinition {
  /** Shown on invoices and in 402 bodies. @default - the plan's id */
  readonly name?: string;
  readonly currency: Currency;
  /** @default 'month' */
  readonly interval?: BillingInterval;
  /** Days a new subscription is free. @default 0 */
  readonly trialDays?: number;
  /** @default [] (a free plan) */
  readonly prices?: readonly Price[];
  /** Features by name. A feature a plan does not list is off on that plan. @default {} */
  readonly features?: Readonly<Record<string, FeatureLimit>>;
}

/** The app's billing declaration (`billing` in `defineApp`, and `createBilling({ plans })`). */
export interface BillingPlans {
  /** Plans by id, cheapest first: the order is the upgrade path a 402 names. */
  readonly plans: Readonly<Record<string, PlanDefinition>>;
  /** The plan of a tenant without a subscription (or whose subscription ended). */
  readonly defaultPlan: string;
  /**
   * Seconds after a period's end during which late usage still counts in that period; `closePeriod` refuses to
   * close a period before its end plus this. @default 3600
   */
  readonly graceSeconds?: number;
}

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
