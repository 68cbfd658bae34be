import type { SubscriptionStatus } from '../model.js';

/**
 * The seam between the billing package and a payment provider. Stripe is the one shipped (`stripeProvider`); Lago,
 * AWS Marketplace metering or an in-house system plug in by implementing this interface (README: "Writing another
 * provider"). Everything crossing it is provider-neutral: tenants and plan names in, ids and normalized events out.
 * Amounts are integer cents.
 */
export interface BillingProvider {
  /** Short name stored with every received event (`stripe`), so two providers' event ids never collide. */
  readonly name: string;
  /** A customer for the tenant; the provider keeps the tenant id (Stripe: `metadata.tenant_id`). */
  createCustomer(input: CreateCustomerInput): Promise<ProviderCustomer>;
  /** A subscription of the customer to a plan, without a checkout page (free plans, trials, back-office). */
  createSubscription(input: CreateSubscriptionInput): Promise<ProviderSubscription>;
  /**
   * The subscription as the provider holds it now. Webhook application reads it rather than trusting the event's
   * copy, so events that arrive out of order (or in the same second) still leave the provider's latest state.
   */
  getSubscription(subscriptionId: string): Promise<ProviderSubscription>;
  /** Moves a subscription to another plan (or seat count); `proration` says how the provider charges the difference. */
  changePlan(input: ChangePlanInput): Promise<ProviderSubscription>;
  /** Cancels now, or at the end of the paid period. */
  cancel(input: CancelInput): Promise<ProviderSubscription>;
  /** A hosted page where the customer pays for a plan; the subscription arrives by webhook once paid. */
  createCheckoutSession(input: CheckoutSessionInput): Promise<ProviderSession>;
  /** A hosted page where the customer manages payment methods, invoices and cancellation. */
  createPortalSession(input: PortalSessionInput): Promise<ProviderSession>;
  /**
   * Reports aggregated usage. Each record carries the key `usageIdempotencyKey(...)` derives from tenant, meter,
   * period and sequence, and the provider must count a key once however often it is pushed (retries, a re-run of a
   * period close).
   */
  pushUsage(usage: readonly UsagePush[]): Promise<PushUsageResult>;
  /**
   * The provider's invoice of the customer's billing period starting at `periodStart`, once the provider has closed
   * that period; undefined before. What `reconcileInvoice` compares a closed period's invoice with.
   */
  findInvoice(input: FindInvoiceInput): Promise<ProviderInvoice | undefined>;
  /**
   * Records a credit granted to the tenant (`grantCredit` with a provider) so the provider's next invoice uses it as
   * ours does (Stripe: a customer balance transaction, negative). Count each `creditId` once however often it is
   * called. Optional: a provider without it keeps credits local (and a credited invoice then reconciles as a
   * mismatch).
   */
  creditCustomer?(input: CreditCustomerInput): Promise<ProviderCredit>;
  /**
   * Verifies a webhook over its raw body (signature and timestamp tolerance) and translates it. Throws a
   * `BillingWebhookError` (400/401 with a code) for anything unsigned, forged or stale.
   */
  parseWebhook(rawBody: string | Buffer, headers: Readonly<Record<string, string | undefined>>): Promise<BillingEvent>;
}

export interface CreditCustomerInput {
  readonly customerId: string;
  readonly tenantId: string;
  /** Our credit's id (`fw_billing_credits.id`): the idempotency key. */
  readonly creditId: string;
  /** The credit, in minor units (> 0). */
  readonly amountCents: number;
  readonly currency: string;
  /** Shown on the provider's side. */
  readonly reason: string;
}

export interface ProviderCredit {
  /** The provider's id of the credit (Stripe: the balance transaction). */
  readonly id: string;
}

export interface FindInvoiceInput {
  readonly customerId: string;
  /** The start of the billing period (the snapshot's `periodStart`, from the provider's subscription). */
  readonly periodStart: Date;
}

export interface CreateCustomerInput {
  readonly tenantId: string;
  /** @default - none */
  readonly email?: string;
  /** @default - none */
  readonly name?: string;
}

export interface ProviderCustomer {
  readonly id: string;
  readonly tenantId: string;
}

export interface CreateSubscriptionInput {
  readonly customerId: string;
  readonly tenantId: string;
  /** A plan name of the app's config (`free`, `pro`). */
  readonly plan: string;
  /**
   * Seats billed (per-seat plans).
   * @default 1
   */
  readonly seats?: number;
  /** @default - the provider's price default (none) */
  readonly trialDays?: number;
}

/** How a plan change mid-period is charged. */
export type ProrationMode = 'prorate' | 'none' | 'invoice_now';

export interface ChangePlanInput {
  readonly subscriptionId: string;
  readonly plan: string;
  /** @default - unchanged */
  readonly seats?: number;
  /**
   * `prorate`: credit the unused part of the old plan and charge the rest of the new one on the next invoice;
   * `invoice_now`: the same, invoiced at once; `none`: the new price starts with the next period.
   * @default 'prorate'
   */
  readonly proration?: ProrationMode;
}

export interface CancelInput {
  readonly subscriptionId: string;
  /**
   * Keep the subscription until the paid period ends.
   * @default false
   */
  readonly atPeriodEnd?: boolean;
}

export interface CheckoutSessionInput {
  readonly customerId: string;
  readonly tenantId: string;
  readonly plan: string;
  /** @default 1 */
  readonly seats?: number;
  readonly successUrl: string;
  readonly cancelUrl: string;
}

export interface PortalSessionInput {
  readonly customerId: string;
  readonly returnUrl: string;
}

export interface ProviderSession {
  readonly id: string;
  /** Where to send the customer's browser. */
  readonly url: string;
}

export interface ProviderSubscription {
  readonly id: string;
  readonly customerId: string;
  /** From the provider's metadata; undefined when the subscription was created outside the app. */
  readonly tenantId: string | undefined;
  /** The app's plan name, or undefined for a price the app does not know. */
  readonly plan: string | undefined;
  readonly status: SubscriptionStatus;
  readonly seats: number;
  readonly currentPeriodStart: Date;
  readonly currentPeriodEnd: Date;
  readonly cancelAtPeriodEnd: boolean;
}

/** One aggregated usage figure to report: a tenant's meter over one period, as the `sequence`-th push of it. */
export interface UsagePush {
  readonly tenantId: string;
  readonly customerId: string;
  /** The meter name of the app's config (`api_calls`). */
  readonly meter: string;
  readonly periodStart: Date;
  /** Increments with each push of the same tenant, meter and period (a delta after late events, ...). */
  readonly sequence: number;
  /** Whole units (never negative). */
  readonly quantity: number;
  /** When the usage happened (the provider files it in that period). */
  readonly timestamp: Date;
}

export interface PushUsageResult {
  /** Records the provider accepted (a key it had already counted is accepted again, not counted again). */
  readonly pushed: number;
}

/** What a webhook means, for the snapshot. Anything else the provider sends is `ignored` (acknowledged, not applied). */
export type BillingEventType =
  | 'subscription.updated'
  | 'subscription.deleted'
  | 'checkout.completed'
  | 'invoice.paid'
  | 'invoice.payment_failed'
  | 'ignored';

export interface ProviderInvoice {
  readonly id: string;
  readonly customerId: string;
  readonly tenantId: string | undefined;
  readonly subscriptionId: string | undefined;
  /** The provider's invoice number, when it gave one. */
  readonly number: string | undefined;
  readonly currency: string;
  readonly totalCents: number;
  readonly amountPaidCents: number;
  /**
   * The customer balance the invoice used, in minor units: negative when a credit paid part of it (Stripe:
   * `ending_balance - starting_balance`, negated). What the customer owes is `totalCents + balanceAppliedCents`.
   * @default 0
   */
  readonly balanceAppliedCents?: number;
  readonly periodStart: Date;
  readonly periodEnd: Date;
  readonly lines: readonly { readonly description: string; readonly amountCents: number; readonly quantity: number }[];
  /** A page showing the invoice, when the provider hosts one. */
  readonly hostedUrl: string | undefined;
}

/** A verified webhook, translated. */
export interface BillingEvent {
  readonly provider: string;
  /** The provider's event id: stored once applied, so a redelivery is acknowledged and not applied again. */
  readonly id: string;
  readonly type: BillingEventType;
  /** The provider's type (`customer.subscription.updated`), for logs. */
  readonly providerType: string;
  /** When the provider created the event: with the object's own order (below) it decides which of two events wins. */
  readonly occurredAt: Date;
  readonly tenantId: string | undefined;
  readonly customerId: string | undefined;
  readonly subscription?: ProviderSubscription;
  readonly invoice?: ProviderInvoice;
  /** Checkout: the session id. */
  readonly checkoutSessionId?: string;
  /** Checkout: the subscription the payment created. */
  readonly subscriptionId?: string;
}
