import type Stripe from 'stripe';
import type { SubscriptionStatus } from '../../model.js';
import type { BillingEvent, BillingEventType, ProviderInvoice, ProviderSubscription } from '../billing-provider.js';

/** The metadata key the tenant id travels in, on customers, subscriptions and checkout sessions. */
export const TENANT_METADATA_KEY = 'tenant_id';

const idOf = (value: string | { id: string } | null | undefined): string | undefined => (typeof value === 'string' ? value : value?.id);
const date = (seconds: number | null | undefined): Date => new Date((seconds ?? 0) * 1000);

/** Whether a subscription item bills usage (a metered price: no quantity, charged from meter events). */
export function isMeteredItem(item: Stripe.SubscriptionItem): boolean {
  return typeof item.price === 'object' && item.price?.recurring?.usage_type === 'metered';
}

/**
 * The item that names the plan, the seats and the period: the licensed item whose price maps to a plan, else the
 * first licensed item. Stripe does not keep the order items were given in, and metered items (one per meter the plan
 * charges) carry no quantity, so `items.data[0]` is not it.
 */
export function licensedItem(subscription: Stripe.Subscription, planOfPrice: (priceId: string) => string | undefined): Stripe.SubscriptionItem | undefined {
  const licensed = subscription.items.data.filter((item) => !isMeteredItem(item));
  return licensed.find((item) => planOfPrice(idOf(item.price) ?? '') !== undefined) ?? licensed[0];
}

/** A Stripe subscription, translated (the plan through the reverse of the adapter's price map). */
export function toProviderSubscription(subscription: Stripe.Subscription, planOfPrice: (priceId: string) => string | undefined): ProviderSubscription {
  const item = licensedItem(subscription, planOfPrice);
  const priceId = item ? idOf(item.price) : undefined;
  // Every item of a subscription shares its billing period; a subscription of metered items only still has one.
  const period = item ?? subscription.items.data[0];
  return {
    id: subscription.id,
    customerId: idOf(subscription.customer) ?? '',
    tenantId: subscription.metadata?.[TENANT_METADATA_KEY],
    plan: priceId ? planOfPrice(priceId) : undefined,
    status: subscription.status as SubscriptionStatus,
    seats: item?.quantity ?? 1,
    // Since API version 2025-03-31 the period lives on the items.
    currentPeriodStart: date(period?.current_period_start),
    currentPeriodEnd: date(period?.current_period_end),
    cancelAtPeriodEnd: subscription.cancel_at_period_end,
  };
}

export function toProviderInvoice(invoice: Stripe.Invoice): ProviderInvoice {
  const details = invoice.parent?.subscription_details;
  return {
    id: invoice.id ?? '',
    customerId: idOf(invoice.customer) ?? '',
    tenantId: details?.metadata?.[TENANT_METADATA_KEY] ?? invoice.metadata?.[TENANT_METADATA_KEY],
    subscriptionId: idOf(details?.subscription),
    number: invoice.number ?? undefined,
    currency: invoice.currency,
    totalCents: invoice.total,
    amountPaidCents: invoice.amount_paid,
    // A credit balance (negative) the invoice used lowers what is due, not Stripe's `total`.
    balanceAppliedCents: (invoice.starting_balance ?? 0) - (invoice.ending_balance ?? invoice.starting_balance ?? 0),
    periodStart: date(invoice.period_start),
    periodEnd: date(invoice.period_end),
    lines: invoice.lines.data.map((line) => ({ description: line.description ?? '', amountCents: line.amount, quantity: line.quantity ?? 1 })),
    hostedUrl: invoice.hosted_invoice_url ?? undefined,
  };
}

const TYPES: Readonly<Record<string, BillingEventType>> = {
  'customer.subscription.created': 'subscription.updated',
  'customer.subscription.updated': 'subscription.updated',
  'customer.subscription.paused': 'subscription.updated',
  'customer.subscription.resumed': 'subscription.updated',
  'customer.subscription.deleted': 'subscription.deleted',
  'checkout.session.completed': 'checkout.completed',
  'invoice.paid': 'invoice.paid',
  'invoice.payment_failed': 'invoice.payment_failed',
};

/** A verified Stripe event, translated; types the package does not apply become `ignored`. */
export function toBillingEvent(event: Stripe.Event, planOfPrice: (priceId: string) => string | undefined): BillingEvent {
  const type = TYPES[event.type] ?? 'ignored';
  const base = { provider: 'stripe', id: event.id, type, providerType: event.type, occurredAt: date(event.created) };
  const object = event.data.object as { object?: string };
  if (object.object === 'subscription' && type !== 'ignored') {
    const subscription = toProviderSubscription(object as Stripe.Subscription, planOfPrice);
    return { ...base, tenantId: subscription.tenantId, customerId: subscription.customerId, subscription };
  }
  if (object.object === 'invoice' && type !== 'ignored') {
    const invoice = toProviderInvoice(object as Stripe.Invoice);
    return { ...base, tenantId: invoice.tenantId, customerId: invoice.customerId, invoice };
  }
  if (object.object === 'checkout.session' && type !== 'ignored') {
    const session = object as Stripe.Checkout.Session;
    return { ...base, tenantId: session.metadata?.[TENANT_METADATA_KEY] ?? session.client_reference_id ?? undefined, customerId: idOf(session.customer), checkoutSessionId: session.id, ...(idOf(session.subscription) ? { subscriptionId: idOf(session.subscription)! } : {}) };
  }
  return { ...base, type: 'ignored', tenantId: undefined, customerId: undefined };
}
