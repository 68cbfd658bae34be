import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import type { LocalStripeMeterPrice, LocalStripePrice } from './local-stripe-options.js';
import { chargedMeters, meterAmount, planPeriodAmount } from './plan-prices.js';

/** Stripe's objects as the fake keeps them: JSON shaped as Stripe's API answers them (a subset of the fields). */
export type StripeObject = Record<string, unknown> & { id: string; object: string };

/** A request the fake refuses, answered with Stripe's error body. */
export class StripeApiError extends Error {
  constructor(
    readonly status: number,
    readonly type: 'invalid_request_error' | 'authentication_error' | 'idempotency_error',
    message: string,
    readonly param?: string,
  ) {
    super(message);
  }
}

export interface ProrationLine {
  readonly description: string;
  readonly amount: number;
}

interface Persisted {
  customers: StripeObject[];
  subscriptions: StripeObject[];
  checkoutSessions: StripeObject[];
  invoices: StripeObject[];
  events: StripeObject[];
  meterEvents: StripeObject[];
  pendingProrations: [string, ProrationLine[]][];
}

export const API_VERSION = '2026-10-28.endive';

const seconds = (date: Date) => Math.floor(date.getTime() / 1000);

/** The same day next month (clamped to the month's end), UTC: Stripe's monthly billing cycle. */
export function addMonth(date: Date): Date {
  const next = new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 1, date.getUTCHours(), date.getUTCMinutes(), date.getUTCSeconds()));
  const lastDay = new Date(Date.UTC(next.getUTCFullYear(), next.getUTCMonth() + 1, 0)).getUTCDate();
  next.setUTCDate(Math.min(date.getUTCDate(), lastDay));
  return next;
}

/** `prefix_` and 24 random characters, as Stripe's ids look. */
export function stripeId(prefix: string): string {
  return `${prefix}_${randomBytes(18).toString('base64url').replace(/[-_]/g, 'x').slice(0, 24)}`;
}

/**
 * The fake's objects and what happens to them. Every change that Stripe announces by webhook calls `emit` with the
 * event (delivery is the server's job).
 */
export class LocalStripeState {
  readonly customers = new Map<string, StripeObject>();
  readonly subscriptions = new Map<string, StripeObject>();
  readonly checkoutSessions = new Map<string, StripeObject>();
  readonly invoices = new Map<string, StripeObject>();
  readonly events: StripeObject[] = [];
  /** By `identifier`: Stripe counts a meter event's identifier once. */
  readonly meterEvents = new Map<string, StripeObject>();
  private readonly pendingProrations = new Map<string, ProrationLine[]>();
  private invoiceCount = 0;

  constructor(
    private readonly prices: Readonly<Record<string, LocalStripePrice>>,
    private readonly meterPrices: Readonly<Record<string, LocalStripeMeterPrice>>,
    private readonly now: () => Date,
    private readonly emit: (event: StripeObject) => void,
  ) {}

  // ---- persistence

  toJSON(): Persisted {
    return {
      customers: [...this.customers.values()],
      subscriptions: [...this.subscriptions.values()],
      checkoutSessions: [...this.checkoutSessions.values()],
      invoices: [...this.invoices.values()],
      events: this.events,
      meterEvents: [...this.meterEvents.values()],
      pendingProrations: [...this.pendingProrations.entries()],
    };
  }

  load(file: string): void {
    if (!existsSync(file)) return;
    const data = JSON.parse(readFileSync(file, 'utf8')) as Persisted;
    for (const c of data.customers) this.customers.set(c.id, c);
    for (const s of data.subscriptions) this.subscriptions.set(s.id, s);
    for (const s of data.checkoutSessions) this.checkoutSessions.set(s.id, s);
    for (const i of data.invoices) this.invoices.set(i.id, i);
    for (const m of data.meterEvents) this.meterEvents.set(String(m['identifier']), m);
    this.events.push(...data.events);
    for (const [id, lines] of data.pendingProrations) this.pendingProrations.set(id, lines);
    this.invoiceCount = this.invoices.size;
  }

  // ---- objects

  price(id: string, param: string): StripeObject {
    const price = Object.hasOwn(this.prices, id) ? this.prices[id] : undefined;
    if (!price) throw new StripeApiError(400, 'invalid_request_error', `No such price: '${id}'`, param);
    return {
      id,
      object: 'price',
      active: true,
      currency: price.currency ?? 'usd',
      unit_amount: price.unitAmountCents,
      unit_amount_decimal: String(price.unitAmountCents),
      nickname: price.nickname ?? null,
      recurring: { interval: 'month', interval_count: 1, usage_type: 'licensed', meter: null },
      type: 'recurring',
      livemode: false,
    };
  }

  customer(id: string, param = 'customer'): StripeObject {
    const customer = this.customers.get(id);
    if (!customer) throw new StripeApiError(404, 'invalid_request_error', `No such customer: '${id}'`, param);
    return customer;
  }

  subscription(id: string): StripeObject {
    const subscription = this.subscriptions.get(id);
    if (!subscription) throw new StripeApiError(404, 'invalid_request_error', `No such subscription: '${id}'`, 'id');
    return subscription;
  }

  createCustomer(params: { email?: string; name?: string; metadata: Record<string, string> }): StripeObject {
    const customer: StripeObject = {
      id: stripeId('cus'),
      object: 'customer',
      created: seconds(this.now()),
      email: params.email ?? null,
      name: params.name ?? null,
      metadata: params.metadata,
      livemode: false,
    };
    this.customers.set(customer.id, customer);
    this.event('customer.created', customer);
    return customer;
  }

  createSubscription(params: { customer: string; items: { price: string; quantity: number }[]; metadata: Record<string, string>; trialDays?: number }): StripeObject {
    this.customer(params.customer);
    if (params.items.length === 0) throw new StripeApiError(400, 'invalid_request_error', 'Missing required param: items.', 'items');
    const start = this.now();
    const id = stripeId('sub');
    const trialEnd = params.trialDays ? new Date(start.getTime() + params.trialDays * 86_400_000) : undefined;
    const end = trialEnd ?? addMonth(start);
    const subscription: StripeObject = {
      id,
      object: 'subscription',
      customer: params.customer,
      status: trialEnd ? 'trialing' : 'active',
      cancel_at_period_end: false,
      canceled_at: null,
      created: seconds(start),
      currency: 'usd',
      metadata: params.metadata,
      trial_end: trialEnd ? seconds(trialEnd) : null,
      items: {
        object: 'list',
        has_more: false,
        url: `/v1/subscription_items?subscription=${id}`,
        data: params.items.map((item, i) => ({
          id: stripeId('si'),
          object: 'subscription_item',
          created: seconds(start),
          subscription: id,
          price: this.price(item.price, `items[${i}][price]`),
          quantity: item.quantity,
          current_period_start: seconds(start),
          current_period_end: seconds(end),
          metadata: {},
        })),
      },
      livemode: false,
    };
    this.subscriptions.set(id, subscription);
    this.event('customer.subscription.created', subscription);
    return subscription;
  }

  updateSubscription(id: string, params: { items?: { id?: string; price?: string; quantity?: number }[]; prorationBehavior?: string; cancelAtPeriodEnd?: boolean; metadata?: Record<string, string> }): StripeObject {
    const subscription = this.subscription(id);
    if (subscription['status'] === 'canceled') throw new StripeApiError(400, 'invalid_request_error', `A canceled subscription can only update its cancellation_details and metadata (${id}).`);
    const previous = structuredClone(subscription);
    const items = (subscription['items'] as { data: Record<string, unknown>[] }).data;
    const proration: ProrationLine[] = [];
    for (const [i, change] of (params.items ?? []).entries()) {
      const item = change.id ? items.find((candidate) => candidate['id'] === change.id) : items[0];
      if (!item) throw new StripeApiError(400, 'invalid_request_error', `No such subscription item: '${change.id}'`, `items[${i}][id]`);
      const oldPrice = item['price'] as { id: string; unit_amount: number; nickname: string | null };
      const oldQuantity = item['quantity'] as number;
      const newPrice = change.price ? this.price(change.price, `items[${i}][price]`) : (oldPrice as unknown as StripeObject);
      const newQuantity = change.quantity ?? (change.price && change.price !== oldPrice.id ? 1 : oldQuantity);
      proration.push(...this.prorate(item, oldPrice, oldQuantity, newPrice as unknown as { id: string; unit_amount: number; nickname: string | null }, newQuantity));
      item['price'] = newPrice;
      item['quantity'] = newQuantity;
    }
    if (params.cancelAtPeriodEnd !== undefined) subscription['cancel_at_period_end'] = params.cancelAtPeriodEnd;
    if (params.metadata) subscription['metadata'] = { ...(subscription['metadata'] as object), ...params.metadata };
    const behavior = params.prorationBehavior ?? 'create_prorations';
    if (proration.length > 0 && behavior !== 'none') {
      const pending = [...(this.pendingProrations.get(id) ?? []), ...proration];
      if (behavior === 'always_invoice') {
        this.pendingProrations.delete(id);
        this.invoice(subscription, pending, []);
      } else {
        this.pendingProrations.set(id, pending);
      }
    }
    this.event('customer.subscription.updated', subscription, previousAttributes(previous, subscription));
    return subscription;
  }

  /** Stripe's proration: the unused time of the old price credited, the rest of the period at the new one, in cents. */
  private prorate(item: Record<string, unknown>, oldPrice: { id: string; unit_amount: number; nickname: string | null }, oldQuantity: number, newPrice: { id: string; unit_amount: number; nickname: string | null }, newQuantity: number): ProrationLine[] {
    if (oldPrice.id === newPrice.id && oldQuantity === newQuantity) return [];
    const start = item['current_period_start'] as number;
    const end = item['current_period_end'] as number;
    const remaining = Math.max(0, Math.min(end - seconds(this.now()), end - start));
    const part = (amount: number) => Math.round((amount * remaining) / (end - start));
    return [
      { description: `Unused time on ${oldQuantity} × ${oldPrice.nickname ?? oldPrice.id}`, amount: 0 - part(this.periodAmount(oldPrice, oldQuantity)) },
      { description: `Remaining time on ${newQuantity} × ${newPrice.nickname ?? newPrice.id}`, amount: part(this.periodAmount(newPrice, newQuantity)) },
    ];
  }

  /** A price's amount for a whole period at `quantity`: its plan's flat and seat prices, else unit amount × quantity. */
  private periodAmount(price: { id: string; unit_amount: number }, quantity: number): number {
    const plan = Object.hasOwn(this.prices, price.id) ? this.prices[price.id]!.plan : undefined;
    return plan ? planPeriodAmount(plan, quantity) : price.unit_amount * quantity;
  }

  cancelSubscription(id: string): StripeObject {
    const subscription = this.subscription(id);
    if (subscription['status'] === 'canceled') return subscription;
    const previous = structuredClone(subscription);
    subscription['status'] = 'canceled';
    subscription['canceled_at'] = seconds(this.now());
    this.event('customer.subscription.deleted', subscription, previousAttributes(previous, subscription));
    return subscription;
  }

  createCheckoutSession(baseUrl: string, params: { customer: string; lineItems: { price: string; quantity: number }[]; successUrl: string; cancelUrl: string; clientReferenceId?: string; metadata: Record<string, string>; subscriptionMetadata: Record<string, string> }): StripeObject {
    this.customer(params.customer);
    if (params.lineItems.length === 0) throw new StripeApiError(400, 'invalid_request_error', 'Missing required param: line_items.', 'line_items');
    params.lineItems.forEach((item, i) => this.price(item.price, `line_items[${i}][price]`));
    const id = stripeId('cs_test');
    const session: StripeObject = {
      id,
      object: 'checkout.session',
      mode: 'subscription',
      status: 'open',
      payment_status: 'unpaid',
      customer: params.customer,
      client_reference_id: params.clientReferenceId ?? null,
      metadata: params.metadata,
      success_url: params.successUrl,
      cancel_url: params.cancelUrl,
      subscription: null,
      url: `${baseUrl}/checkout/${id}`,
      created: seconds(this.now()),
      expires_at: seconds(this.now()) + 86_400,
      livemode: false,
      // Kept to create the subscription on completion (Stripe keeps them server-side too).
      fw_line_items: params.lineItems,
      fw_subscription_metadata: params.subscriptionMetadata,
    };
    this.checkoutSessions.set(id, session);
    return session;
  }

  /** What Stripe does when the customer pays on the hosted page: the subscription, then `checkout.session.completed`. */
  completeCheckout(id: string): StripeObject {
    const session = this.checkoutSessions.get(id);
    if (!session) throw new StripeApiError(404, 'invalid_request_error', `No such checkout session: '${id}'`, 'id');
    if (session['status'] !== 'open') throw new StripeApiError(400, 'invalid_request_error', `Checkout session ${id} is ${String(session['status'])}, not open`);
    const subscription = this.createSubscription({
      customer: session['customer'] as string,
      items: session['fw_line_items'] as { price: string; quantity: number }[],
      metadata: session['fw_subscription_metadata'] as Record<string, string>,
    });
    session['status'] = 'complete';
    session['payment_status'] = 'paid';
    session['subscription'] = subscription.id;
    this.event('checkout.session.completed', session);
    return session;
  }

  recordMeterEvent(params: { eventName: string; identifier: string; customer: string; value: string; timestamp: number }): StripeObject {
    const existing = this.meterEvents.get(params.identifier);
    if (existing) return existing;
    this.customer(params.customer, 'payload[stripe_customer_id]');
    if (!/^\d+(\.\d+)?$/.test(params.value)) throw new StripeApiError(400, 'invalid_request_error', `payload[value] must be a number, got '${params.value}'`, 'payload[value]');
    const meterEvent: StripeObject = {
      id: params.identifier,
      object: 'billing.meter_event',
      event_name: params.eventName,
      identifier: params.identifier,
      payload: { stripe_customer_id: params.customer, value: params.value },
      timestamp: params.timestamp,
      created: seconds(this.now()),
      livemode: false,
    };
    this.meterEvents.set(params.identifier, meterEvent);
    return meterEvent;
  }

  /**
   * Ends the subscription's current period: an invoice for it (the plan for the period, proration lines, meter usage
   * inside the period) marked paid (`invoice.paid`), then the next period (`customer.subscription.updated`), or the
   * end of a subscription set to cancel at period end (`customer.subscription.deleted`).
   */
  closePeriod(id: string): StripeObject {
    const subscription = this.subscription(id);
    if (subscription['status'] === 'canceled') throw new StripeApiError(400, 'invalid_request_error', `Subscription ${id} is canceled`);
    const items = (subscription['items'] as { data: Record<string, unknown>[] }).data;
    const start = items[0]!['current_period_start'] as number;
    const end = items[0]!['current_period_end'] as number;
    const planLines = items.map((item) => {
      const price = item['price'] as { unit_amount: number; id: string; nickname: string | null };
      const quantity = item['quantity'] as number;
      return { description: `${quantity} × ${price.nickname ?? price.id}`, amount: this.periodAmount(price, quantity), quantity };
    });
    const plans = items.flatMap((item) => {
      const priceId = (item['price'] as { id: string }).id;
      const plan = Object.hasOwn(this.prices, priceId) ? this.prices[priceId]!.plan : undefined;
      return plan ? [plan] : [];
    });
    const usageLines = [...this.usageLines(subscription['customer'] as string, start, end), ...plans.flatMap((plan) => this.planUsageLines(plan, subscription['customer'] as string, start, end))];
    const invoice = this.invoice(subscription, [...(this.pendingProrations.get(id) ?? []), ...planLines], usageLines, { start, end });
    this.pendingProrations.delete(id);
    const previous = structuredClone(subscription);
    if (subscription['cancel_at_period_end']) {
      subscription['status'] = 'canceled';
      subscription['canceled_at'] = end;
      this.event('customer.subscription.deleted', subscription, previousAttributes(previous, subscription));
    } else {
      const next = addMonth(new Date(end * 1000));
      for (const item of items) {
        item['current_period_start'] = end;
        item['current_period_end'] = seconds(next);
      }
      if (subscription['status'] === 'trialing') subscription['status'] = 'active';
      this.event('customer.subscription.updated', subscription, previousAttributes(previous, subscription));
    }
    return invoice;
  }

  /** Units of a meter the customer reported for `[start, end)`. */
  private meterUnits(eventName: string, customer: string, start: number, end: number): number {
    let units = 0;
    for (const meterEvent of this.meterEvents.values()) {
      const payload = meterEvent['payload'] as { stripe_customer_id: string; value: string };
      const at = meterEvent['timestamp'] as number;
      if (meterEvent['event_name'] === eventName && payload.stripe_customer_id === customer && at >= start && at < end) units += Number(payload.value);
    }
    return units;
  }

  /** The usage lines of a plan's charged meters, on the plan's tiers (the package's exact graduated pricing). */
  private planUsageLines(plan: NonNullable<LocalStripePrice['plan']>, customer: string, start: number, end: number): { description: string; amount: number; quantity: number }[] {
    return chargedMeters(plan).map(([meter, tiers]) => {
      const units = this.meterUnits(meter, customer, start, end);
      return { description: `${units} × ${meter}`, amount: meterAmount(tiers, units), quantity: units };
    });
  }

  private usageLines(customer: string, start: number, end: number): { description: string; amount: number; quantity: number }[] {
    const lines: { description: string; amount: number; quantity: number }[] = [];
    for (const [eventName, price] of Object.entries(this.meterPrices)) {
      let units = 0;
      for (const meterEvent of this.meterEvents.values()) {
        const payload = meterEvent['payload'] as { stripe_customer_id: string; value: string };
        const at = meterEvent['timestamp'] as number;
        if (meterEvent['event_name'] === eventName && payload.stripe_customer_id === customer && at >= start && at < end) units += Number(payload.value);
      }
      const charged = Math.max(0, units - (price.includedUnits ?? 0));
      lines.push({ description: `${units} × ${eventName} (${price.includedUnits ?? 0} included)`, amount: Math.round(charged * Number(price.unitAmountDecimal)), quantity: units });
    }
    return lines;
  }

  private invoice(subscription: StripeObject, lines: readonly { description: string; amount: number; quantity?: number }[], usage: readonly { description: string; amount: number; quantity: number }[], period?: { start: number; end: number }): StripeObject {
    const all = [...lines, ...usage];
    const total = all.reduce((sum, line) => sum + line.amount, 0);
    const now = seconds(this.now());
    this.invoiceCount += 1;
    const id = stripeId('in');
    const invoice: StripeObject = {
      id,
      object: 'invoice',
      number: `FWLOCAL-${String(this.invoiceCount).padStart(4, '0')}`,
      customer: subscription['customer'],
      currency: subscription['currency'],
      status: 'paid',
      subtotal: total,
      total,
      amount_due: Math.max(0, total),
      amount_paid: Math.max(0, total),
      amount_remaining: 0,
      period_start: period?.start ?? now,
      period_end: period?.end ?? now,
      created: now,
      hosted_invoice_url: null,
      metadata: {},
      parent: { type: 'subscription_details', quote_details: null, subscription_details: { subscription: subscription.id, metadata: subscription['metadata'] } },
      lines: {
        object: 'list',
        has_more: false,
        url: `/v1/invoices/${id}/lines`,
        data: all.map((line) => ({ id: stripeId('il'), object: 'line_item', description: line.description, amount: line.amount, currency: subscription['currency'], quantity: line.quantity ?? 1 })),
      },
      livemode: false,
    };
    this.invoices.set(id, invoice);
    this.event('invoice.finalized', invoice);
    this.event('invoice.paid', invoice);
    return invoice;
  }

  private event(type: string, object: StripeObject, previous?: Record<string, unknown>): void {
    const event: StripeObject = {
      id: stripeId('evt'),
      object: 'event',
      api_version: API_VERSION,
      created: seconds(this.now()),
      type,
      // A snapshot: later changes to the object must not change what this event said.
      data: { object: publicView(object), ...(previous && Object.keys(previous).length > 0 ? { previous_attributes: previous } : {}) },
      livemode: false,
      pending_webhooks: 1,
      request: { id: null, idempotency_key: null },
    };
    this.events.push(event);
    this.emit(event);
  }
}

/** An object as the API shows it: the fake's own bookkeeping fields (`fw_...`) left out. */
export function publicView(object: StripeObject): StripeObject {
  const copy = structuredClone(object);
  for (const key of Object.keys(copy)) if (key.startsWith('fw_')) delete copy[key];
  return copy;
}

/** Stripe's `previous_attributes`: the top-level fields an update changed, with their old values. */
function previousAttributes(before: StripeObject, after: StripeObject): Record<string, unknown> {
  const changed: Record<string, unknown> = {};
  for (const key of Object.keys(before)) if (JSON.stringify(before[key]) !== JSON.stringify(after[key])) changed[key] = before[key];
  return changed;
}
