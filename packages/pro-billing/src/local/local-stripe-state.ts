import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import type { LocalStripeMeterPrice, LocalStripePrice } from './local-stripe-options.js';
import { fromStripeTiers, toStripeTiers } from '../provider/stripe/stripe-tiers.js';
import { localMeterId, meterAmount, planPeriodAmount } from './plan-prices.js';

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

/** A subscription item as asked (`items[]`, `line_items[]`): a licensed price with a quantity, or a metered one without. */
export interface ItemInput {
  readonly price: string;
  readonly quantity?: number;
}

/** One entry of `items[]` of a subscription update: an existing item (`id`) changed or `deleted`, or a new item. */
export interface ItemChange {
  readonly id?: string;
  readonly price?: string;
  readonly quantity?: number;
  readonly deleted?: boolean;
}

/** The fields of a price (as kept on a subscription item) the fake bills from. */
interface PriceView {
  readonly id: string;
  readonly unit_amount: number | null;
  readonly unit_amount_decimal?: string | null;
  readonly nickname: string | null;
  readonly tiers?: readonly { up_to?: number | null; flat_amount?: number | null; unit_amount?: number | null; unit_amount_decimal?: string | null }[] | null;
  readonly recurring?: { readonly usage_type?: string; readonly meter?: string | null } | null;
}

/** A metered price: charged from meter events at period close, never by quantity (Stripe's `usage_type`). */
function isMeteredPrice(price: unknown): boolean {
  return (price as PriceView).recurring?.usage_type === 'metered';
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
  /** Added later: absent from older state files. */
  balanceTransactions?: StripeObject[];
  products?: StripeObject[];
  prices?: StripeObject[];
  meters?: StripeObject[];
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
  /** Customer balance transactions (credits: negative amounts), by id. */
  readonly balanceTransactions = new Map<string, StripeObject>();
  /** The catalog created through the API (`syncStripePlans`): products, prices, billing meters, by id. */
  readonly products = new Map<string, StripeObject>();
  readonly createdPrices = new Map<string, StripeObject>();
  readonly meters = new Map<string, StripeObject>();
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
      balanceTransactions: [...this.balanceTransactions.values()],
      products: [...this.products.values()],
      prices: [...this.createdPrices.values()],
      meters: [...this.meters.values()],
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
    for (const t of data.balanceTransactions ?? []) this.balanceTransactions.set(t.id, t);
    for (const p of data.products ?? []) this.products.set(p.id, p);
    for (const p of data.prices ?? []) this.createdPrices.set(p.id, p);
    for (const m of data.meters ?? []) this.meters.set(m.id, m);
    this.invoiceCount = this.invoices.size;
  }

  // ---- objects

  price(id: string, param: string): StripeObject {
    const created = this.createdPrices.get(id);
    if (created) return created;
    const price = Object.hasOwn(this.prices, id) ? this.prices[id] : undefined;
    if (!price) throw new StripeApiError(400, 'invalid_request_error', `No such price: '${id}'`, param);
    const common = { id, object: 'price', active: true, currency: price.currency ?? 'usd', nickname: price.nickname ?? null, type: 'recurring', livemode: false };
    if (price.meter === undefined) {
      return { ...common, billing_scheme: 'per_unit', tiers_mode: null, unit_amount: price.unitAmountCents, unit_amount_decimal: String(price.unitAmountCents), recurring: { interval: 'month', interval_count: 1, usage_type: 'licensed', meter: null }, metadata: {} };
    }
    // A metered price is backed by a billing meter (Stripe API 2025-03-31 and later): usage comes from meter events.
    return {
      ...common,
      billing_scheme: 'tiered',
      tiers_mode: 'graduated',
      tiers: toStripeTiers(price.tiers ?? [{ upTo: 'inf', unitAmount: price.unitAmountCents }]),
      unit_amount: null,
      unit_amount_decimal: null,
      recurring: { interval: 'month', interval_count: 1, usage_type: 'metered', meter: localMeterId(price.meter) },
      metadata: { fw_meter: price.meter },
    };
  }

  /** The billing meters the configured metered prices name (one per event name), as `GET /v1/billing/meters` lists them. */
  private configuredMeters(): StripeObject[] {
    const names = [...new Set(Object.values(this.prices).flatMap((price) => (price.meter === undefined ? [] : [price.meter])))];
    return names.map((name) => ({ id: localMeterId(name), object: 'billing.meter', display_name: name, event_name: name, default_aggregation: { formula: 'sum' }, status: 'active', created: 0, livemode: false }));
  }

  /** Every billing meter: the configured prices' and those created through the API. */
  listMeters(): StripeObject[] {
    return [...this.configuredMeters(), ...this.meters.values()];
  }

  meter(id: string, param = 'id'): StripeObject {
    const meter = this.meters.get(id) ?? this.configuredMeters().find((candidate) => candidate.id === id);
    if (!meter) throw new StripeApiError(param === 'id' ? 404 : 400, 'invalid_request_error', `No such billing meter: '${id}'`, param);
    return meter;
  }

  /**
   * A subscription item on `input.price`. A metered price takes no quantity (Stripe refuses one: usage comes from
   * meter events); a licensed one defaults to 1.
   */
  private subscriptionItem(subscriptionId: string, input: ItemInput, param: string, period: { start: number; end: number }): Record<string, unknown> {
    const price = this.price(input.price, `${param}[price]`);
    const metered = isMeteredPrice(price);
    if (metered && input.quantity !== undefined) throw new StripeApiError(400, 'invalid_request_error', `Quantity should not be specified where usage_type is \`metered\`. Remove quantity from ${param}.`, `${param}[quantity]`);
    if (input.quantity !== undefined && !(Number.isSafeInteger(input.quantity) && input.quantity >= 0)) throw new StripeApiError(400, 'invalid_request_error', `Invalid integer: ${String(input.quantity)}`, `${param}[quantity]`);
    return {
      id: stripeId('si'),
      object: 'subscription_item',
      created: seconds(this.now()),
      subscription: subscriptionId,
      price,
      ...(metered ? {} : { quantity: input.quantity ?? 1 }),
      current_period_start: period.start,
      current_period_end: period.end,
      metadata: {},
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
      // Stripe's customer balance: negative is credit, applied to the next invoice.
      balance: 0,
      metadata: params.metadata,
      livemode: false,
    };
    this.customers.set(customer.id, customer);
    this.event('customer.created', customer);
    return customer;
  }

  createSubscription(params: { customer: string; items: readonly ItemInput[]; metadata: Record<string, string>; trialDays?: number }): StripeObject {
    this.customer(params.customer);
    if (params.items.length === 0) throw new StripeApiError(400, 'invalid_request_error', 'Missing required param: items.', 'items');
    distinctPrices(params.items.map((item) => item.price), 'items');
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
        data: params.items.map((item, i) => this.subscriptionItem(id, item, `items[${i}]`, { start: seconds(start), end: seconds(end) })),
      },
      livemode: false,
    };
    this.subscriptions.set(id, subscription);
    this.event('customer.subscription.created', subscription);
    return subscription;
  }

  /**
   * Stripe's subscription update: each `items[]` entry with an `id` changes that item (price, quantity) or removes it
   * (`deleted`), one without adds an item. Licensed changes are prorated (`proration_behavior`); metered items are
   * not (their usage is charged at period close from meter events, on the price the item has then).
   */
  updateSubscription(id: string, params: { items?: readonly ItemChange[]; prorationBehavior?: string; cancelAtPeriodEnd?: boolean; metadata?: Record<string, string> }): StripeObject {
    const subscription = this.subscription(id);
    if (subscription['status'] === 'canceled') throw new StripeApiError(400, 'invalid_request_error', `A canceled subscription can only update its cancellation_details and metadata (${id}).`);
    const previous = structuredClone(subscription);
    const list = subscription['items'] as { data: Record<string, unknown>[] };
    // Changed on a copy: a refused entry leaves the subscription as it was.
    const items = structuredClone(list.data);
    const period = { start: items[0]!['current_period_start'] as number, end: items[0]!['current_period_end'] as number };
    const proration: ProrationLine[] = [];
    for (const [i, change] of (params.items ?? []).entries()) {
      const param = `items[${i}]`;
      if (change.id === undefined) {
        if (change.deleted) throw new StripeApiError(400, 'invalid_request_error', `Missing required param: ${param}[id] (the item to delete).`, `${param}[id]`);
        if (!change.price) throw new StripeApiError(400, 'invalid_request_error', `Missing required param: ${param}[price].`, `${param}[price]`);
        const added = this.subscriptionItem(id, { price: change.price, ...(change.quantity !== undefined ? { quantity: change.quantity } : {}) }, param, period);
        items.push(added);
        if (!isMeteredPrice(added['price'])) proration.push(...this.prorate(period, undefined, { price: added['price'] as PriceView, quantity: added['quantity'] as number }));
        continue;
      }
      const index = items.findIndex((candidate) => candidate['id'] === change.id);
      if (index < 0) throw new StripeApiError(400, 'invalid_request_error', `No such subscription item: '${change.id}'`, `${param}[id]`);
      const item = items[index]!;
      const oldPrice = item['price'] as PriceView;
      const oldQuantity = item['quantity'] as number;
      if (change.deleted) {
        items.splice(index, 1);
        if (!isMeteredPrice(oldPrice)) proration.push(...this.prorate(period, { price: oldPrice, quantity: oldQuantity }, undefined));
        continue;
      }
      const newPrice = (change.price ? this.price(change.price, `${param}[price]`) : oldPrice) as PriceView;
      if (isMeteredPrice(newPrice) !== isMeteredPrice(oldPrice)) {
        throw new StripeApiError(400, 'invalid_request_error', `The price ${newPrice.id} is ${isMeteredPrice(newPrice) ? 'metered' : 'licensed'} and item ${change.id} is ${isMeteredPrice(oldPrice) ? 'metered' : 'licensed'}; delete the item and add a new one.`, `${param}[price]`);
      }
      if (isMeteredPrice(newPrice)) {
        if (change.quantity !== undefined) throw new StripeApiError(400, 'invalid_request_error', `Quantity should not be specified where usage_type is \`metered\`. Remove quantity from ${param}.`, `${param}[quantity]`);
        item['price'] = newPrice;
        continue;
      }
      const newQuantity = change.quantity ?? (change.price && change.price !== oldPrice.id ? 1 : oldQuantity);
      proration.push(...this.prorate(period, { price: oldPrice, quantity: oldQuantity }, { price: newPrice, quantity: newQuantity }));
      item['price'] = newPrice;
      item['quantity'] = newQuantity;
    }
    if (items.length === 0) throw new StripeApiError(400, 'invalid_request_error', `Subscription ${id} would have no items left; cancel it instead.`, 'items');
    distinctPrices(items.map((item) => (item['price'] as PriceView).id), 'items');
    list.data = items;
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

  /**
   * Stripe's proration of a licensed item: the unused time of what it was (`before`) credited, the rest of the period
   * at what it becomes (`after`), in cents. An added item has no `before`, a deleted one no `after`.
   */
  private prorate(period: { start: number; end: number }, before: { price: PriceView; quantity: number } | undefined, after: { price: PriceView; quantity: number } | undefined): ProrationLine[] {
    if (before && after && before.price.id === after.price.id && before.quantity === after.quantity) return [];
    const remaining = Math.max(0, Math.min(period.end - seconds(this.now()), period.end - period.start));
    const part = (amount: number) => Math.round((amount * remaining) / (period.end - period.start));
    return [
      ...(before ? [{ description: `Unused time on ${before.quantity} × ${before.price.nickname ?? before.price.id}`, amount: 0 - part(this.periodAmount(before.price, before.quantity)) }] : []),
      ...(after ? [{ description: `Remaining time on ${after.quantity} × ${after.price.nickname ?? after.price.id}`, amount: part(this.periodAmount(after.price, after.quantity)) }] : []),
    ];
  }

  /**
   * A licensed price's amount for a whole period at `quantity`: its plan's flat and seat prices, else its graduated
   * tiers (flat amounts included), else unit amount × quantity.
   */
  private periodAmount(price: PriceView, quantity: number): number {
    const plan = this.planOfPrice(price.id);
    if (plan) return planPeriodAmount(plan, quantity);
    if (price.tiers && price.tiers.length > 0) return meterAmount(fromStripeTiers(price.tiers), quantity);
    return (price.unit_amount ?? 0) * quantity;
  }

  /**
   * The config's plan a price bills: a configured price (`price_<plan>`), or a price created through the API for a
   * plan (`syncStripePlans` puts the plan id in `metadata.fw_plan`), which then charges as that plan's own price.
   */
  planOfPrice(priceId: string): LocalStripePrice['plan'] {
    if (Object.hasOwn(this.prices, priceId)) return this.prices[priceId]!.plan;
    const plan = (this.createdPrices.get(priceId)?.['metadata'] as Record<string, string> | undefined)?.['fw_plan'];
    const local = plan === undefined ? undefined : `price_${plan}`;
    return local !== undefined && Object.hasOwn(this.prices, local) ? this.prices[local]!.plan : undefined;
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

  createCheckoutSession(baseUrl: string, params: { customer: string; lineItems: readonly ItemInput[]; successUrl: string; cancelUrl: string; clientReferenceId?: string; metadata: Record<string, string>; subscriptionMetadata: Record<string, string> }): StripeObject {
    this.customer(params.customer);
    if (params.lineItems.length === 0) throw new StripeApiError(400, 'invalid_request_error', 'Missing required param: line_items.', 'line_items');
    params.lineItems.forEach((item, i) => {
      const price = this.price(item.price, `line_items[${i}][price]`);
      if (isMeteredPrice(price) && item.quantity !== undefined) throw new StripeApiError(400, 'invalid_request_error', `Quantity should not be specified where usage_type is \`metered\`. Remove quantity from line_items[${i}].`, `line_items[${i}][quantity]`);
    });
    distinctPrices(params.lineItems.map((item) => item.price), 'line_items');
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
      items: session['fw_line_items'] as ItemInput[],
      metadata: session['fw_subscription_metadata'] as Record<string, string>,
    });
    session['status'] = 'complete';
    session['payment_status'] = 'paid';
    session['subscription'] = subscription.id;
    this.event('checkout.session.completed', session);
    return session;
  }

  /** A customer balance transaction: a negative amount is a credit the next invoice uses (Stripe's `balance`). */
  createBalanceTransaction(customerId: string, params: { amount: number; currency: string; description?: string; metadata: Record<string, string> }): StripeObject {
    const customer = this.customer(customerId, 'customer');
    if (!Number.isSafeInteger(params.amount) || params.amount === 0) throw new StripeApiError(400, 'invalid_request_error', `amount must be a non-zero whole number of cents, got '${String(params.amount)}'`, 'amount');
    const ending = ((customer['balance'] as number | undefined) ?? 0) + params.amount;
    customer['balance'] = ending;
    const transaction: StripeObject = {
      id: stripeId('cbtxn'),
      object: 'customer_balance_transaction',
      amount: params.amount,
      currency: params.currency,
      customer: customerId,
      description: params.description ?? null,
      ending_balance: ending,
      type: 'adjustment',
      created: seconds(this.now()),
      metadata: params.metadata,
      livemode: false,
    };
    this.balanceTransactions.set(transaction.id, transaction);
    this.event('customer.updated', customer);
    return transaction;
  }

  balanceTransactionsOf(customerId: string): StripeObject[] {
    this.customer(customerId, 'customer');
    return [...this.balanceTransactions.values()].filter((t) => t['customer'] === customerId).reverse();
  }

  /** A product with the caller's id (Stripe allows one), or a generated one. */
  createProduct(params: { id?: string; name: string; active?: boolean; metadata: Record<string, string> }): StripeObject {
    if (params.id && this.products.has(params.id)) throw new StripeApiError(400, 'invalid_request_error', `Product already exists: '${params.id}'`, 'id');
    const product: StripeObject = { id: params.id ?? stripeId('prod'), object: 'product', name: params.name, active: params.active ?? true, metadata: params.metadata, created: seconds(this.now()), updated: seconds(this.now()), livemode: false };
    this.products.set(product.id, product);
    return product;
  }

  product(id: string): StripeObject {
    const product = this.products.get(id);
    if (!product) throw new StripeApiError(404, 'invalid_request_error', `No such product: '${id}'`, 'id');
    return product;
  }

  updateProduct(id: string, params: { name?: string; active?: boolean; metadata?: Record<string, string> }): StripeObject {
    const product = this.product(id);
    if (params.name !== undefined) product['name'] = params.name;
    if (params.active !== undefined) product['active'] = params.active;
    if (params.metadata) product['metadata'] = { ...(product['metadata'] as object), ...params.metadata };
    product['updated'] = seconds(this.now());
    return product;
  }

  /**
   * A price (immutable once created, as Stripe's: amounts never change). `lookup_key` is unique among prices: taken
   * by another price it is refused unless `transfer_lookup_key` moves it here.
   */
  createPrice(params: { product: string; currency: string; unitAmountDecimal?: string; tiers?: readonly Record<string, unknown>[]; tiersMode?: string; billingScheme: string; recurring: Record<string, unknown>; lookupKey?: string; transferLookupKey: boolean; nickname?: string; metadata: Record<string, string> }): StripeObject {
    this.product(params.product);
    if (params.recurring['usage_type'] === 'metered') {
      // Since API version 2025-03-31 a metered price is backed by a billing meter (legacy usage records are gone).
      if (!params.recurring['meter']) throw new StripeApiError(400, 'invalid_request_error', 'Missing required param: recurring[meter] (a metered price needs a billing meter).', 'recurring[meter]');
      this.meter(String(params.recurring['meter']), 'recurring[meter]');
    }
    if (params.lookupKey) {
      const holder = [...this.createdPrices.values()].find((p) => p['lookup_key'] === params.lookupKey);
      if (holder && !params.transferLookupKey) throw new StripeApiError(400, 'invalid_request_error', `A price (${holder.id}) already uses the lookup key '${params.lookupKey}'; pass transfer_lookup_key=true to move it.`, 'lookup_key');
      if (holder) holder['lookup_key'] = null;
    }
    const unit = params.unitAmountDecimal;
    const price: StripeObject = {
      id: stripeId('price'),
      object: 'price',
      active: true,
      product: params.product,
      currency: params.currency,
      billing_scheme: params.billingScheme,
      tiers_mode: params.tiersMode ?? null,
      tiers: params.tiers ?? null,
      unit_amount: unit !== undefined && /^\d+$/.test(unit) ? Number(unit) : null,
      unit_amount_decimal: unit ?? null,
      recurring: params.recurring,
      lookup_key: params.lookupKey ?? null,
      nickname: params.nickname ?? null,
      metadata: params.metadata,
      type: 'recurring',
      created: seconds(this.now()),
      livemode: false,
    };
    this.createdPrices.set(price.id, price);
    return price;
  }

  updatePrice(id: string, params: { active?: boolean; metadata?: Record<string, string> }): StripeObject {
    const price = this.createdPrices.get(id);
    if (!price) throw new StripeApiError(404, 'invalid_request_error', `No such price: '${id}'`, 'id');
    if (params.active !== undefined) price['active'] = params.active;
    if (params.metadata) price['metadata'] = { ...(price['metadata'] as object), ...params.metadata };
    return price;
  }

  /** Prices by lookup key (`GET /v1/prices?lookup_keys[]=...`), or all created ones. */
  listPrices(lookupKeys: readonly string[] | undefined, active: boolean | undefined): StripeObject[] {
    return [...this.createdPrices.values()].filter((p) => (lookupKeys === undefined || lookupKeys.includes(p['lookup_key'] as string)) && (active === undefined || p['active'] === active)).reverse();
  }

  /** A billing meter (what meter events name by `event_name`), unique by event name. */
  createMeter(params: { displayName: string; eventName: string; formula: string }): StripeObject {
    if (this.listMeters().some((m) => m['event_name'] === params.eventName && m['status'] === 'active')) throw new StripeApiError(400, 'invalid_request_error', `A meter with event_name '${params.eventName}' already exists.`, 'event_name');
    const meter: StripeObject = { id: stripeId('mtr'), object: 'billing.meter', display_name: params.displayName, event_name: params.eventName, default_aggregation: { formula: params.formula }, status: 'active', created: seconds(this.now()), livemode: false };
    this.meters.set(meter.id, meter);
    return meter;
  }

  /** Stripe's `POST /v1/billing/meters/:id/deactivate`: the meter stops counting, its event name can be reused. */
  deactivateMeter(id: string): StripeObject {
    const meter = this.meters.get(id);
    if (!meter) throw new StripeApiError(this.meter(id) ? 400 : 404, 'invalid_request_error', `Meter ${id} backs the fake's configured prices and stays active.`, 'id');
    meter['status'] = 'inactive';
    return meter;
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
    const customer = subscription['customer'] as string;
    // As Stripe: each licensed item at its quantity, each metered item from the meter events of the period.
    const planLines = items.filter((item) => !isMeteredPrice(item['price'])).map((item) => {
      const price = item['price'] as PriceView;
      const quantity = item['quantity'] as number;
      return { description: `${quantity} × ${price.nickname ?? price.id}`, amount: this.periodAmount(price, quantity), quantity };
    });
    const meteredLines = items.filter((item) => isMeteredPrice(item['price'])).map((item) => this.meteredItemLine(item['price'] as PriceView, customer, start, end));
    const usageLines = [...meteredLines, ...this.usageLines(customer, start, end)];
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

  /**
   * A metered item's line: the units its price's billing meter received from the customer in the period, on the
   * price's tiers, priced by the package's exact graduated pricing (rounded once) as a period close prices them.
   */
  private meteredItemLine(price: PriceView, customer: string, start: number, end: number): { description: string; amount: number; quantity: number } {
    const eventName = String(this.meter(String(price.recurring?.meter ?? ''), 'recurring[meter]')['event_name']);
    const units = this.meterUnits(eventName, customer, start, end);
    return { description: `${units} × ${eventName}`, amount: meterAmount(fromStripeTiers(price.tiers, price.unit_amount_decimal), units), quantity: units };
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
    // Stripe applies the customer's credit balance to the amount due (not to the total), up to it.
    const customer = this.customers.get(subscription['customer'] as string);
    const startingBalance = (customer?.['balance'] as number | undefined) ?? 0;
    const applied = startingBalance < 0 && total > 0 ? Math.min(-startingBalance, total) : 0;
    const endingBalance = startingBalance + applied;
    if (customer) customer['balance'] = endingBalance;
    const due = Math.max(0, total - applied);
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
      starting_balance: startingBalance,
      ending_balance: endingBalance,
      amount_due: due,
      amount_paid: due,
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

/** Stripe refuses two items (or checkout line items) of one price in a subscription. */
function distinctPrices(prices: readonly string[], param: string): void {
  const seen = new Set<string>();
  for (const price of prices) {
    if (seen.has(price)) throw new StripeApiError(400, 'invalid_request_error', `Cannot add multiple subscription items with the same price: ${price}.`, param);
    seen.add(price);
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
