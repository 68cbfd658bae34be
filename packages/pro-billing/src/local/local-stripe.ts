import { closeSync, fsyncSync, mkdirSync, openSync, renameSync, writeSync } from 'node:fs';
import * as path from 'node:path';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type Stripe from 'stripe';
import { BillingError } from '../errors.js';
import { definePlans } from '../plans/index.js';
import type { LocalStripeOptions } from './local-stripe-options.js';
import { LocalStripeState, StripeApiError, publicView, type StripeObject } from './local-stripe-state.js';
import { localStripePrices } from './plan-prices.js';
import { formList, formRecord, formString, parseStripeForm, type FormValue } from './stripe-form.js';

export const LOCAL_STRIPE_API_KEY = 'sk_test_fw_local';
export const LOCAL_STRIPE_WEBHOOK_SECRET = 'whsec_fw_local';

/** How one event's delivery went. */
export interface WebhookDelivery {
  readonly eventId: string;
  readonly type: string;
  readonly attempts: number;
  /** The last answer's status (0: no answer). */
  readonly status: number;
  readonly delivered: boolean;
}

const LOOPBACK_HOST = /^(127\.0\.0\.1|localhost|\[::1\])(:\d+)?$/;
const MAX_BODY_BYTES = 256 * 1024;

/**
 * A local stand-in for the part of Stripe's API the adapter calls, over real HTTP (the `stripe` SDK talks to it with
 * `apiUrl`), that sends signed webhooks (`Stripe-Signature: t=...,v1=...`) to the app: the whole billing flow runs
 * offline. It answers only on 127.0.0.1, only to the configured key; its objects have Stripe's shapes (a subset of the
 * fields; see the README for what it covers).
 */
export class LocalStripe {
  readonly apiKey: string;
  readonly webhookSecret: string;
  private readonly state: LocalStripeState;
  private readonly server: Server;
  /** Signs webhooks as Stripe does (the SDK's own signer): loaded with the first webhook, not while fw dev starts. */
  private signer?: Promise<Stripe>;
  private webhookUrl: string | undefined;
  private readonly held: StripeObject[] = [];
  private readonly idempotent = new Map<string, { status: number; body: string }>();
  private readonly deliveryLog: WebhookDelivery[] = [];
  private queue: Promise<void> = Promise.resolve();
  private baseUrl = '';

  private constructor(private readonly options: LocalStripeOptions) {
    const prices = { ...localStripePrices(options.plans === undefined ? { plans: {}, defaultPlan: '' } : definePlans(options.plans)), ...options.prices };
    if (Object.keys(prices).length === 0) throw new BillingError('FW_ERR_BILLING_PROVIDER_OPTIONS', "LocalStripe: no prices; give the app's plans (plans: app.billing), or list the price ids the adapter maps plans to (prices)");
    for (const [id, price] of Object.entries(prices)) {
      if (!Number.isSafeInteger(price.unitAmountCents) || price.unitAmountCents < 0) throw new BillingError('FW_ERR_BILLING_PROVIDER_OPTIONS', `LocalStripe: price ${id}: unitAmountCents must be a whole number of cents >= 0`);
      if (price.meter !== undefined && !/^[\w.:-]{1,100}$/.test(price.meter)) throw new BillingError('FW_ERR_BILLING_PROVIDER_OPTIONS', `LocalStripe: price ${id}: meter must be a billing meter's event name (letters, digits, _ . : -), got ${JSON.stringify(price.meter)}`);
      if (price.tiers !== undefined && (price.meter === undefined || price.tiers.length === 0 || price.tiers.at(-1)!.upTo !== 'inf')) throw new BillingError('FW_ERR_BILLING_PROVIDER_OPTIONS', `LocalStripe: price ${id}: tiers belong to a metered price (give meter) and end with upTo: 'inf'`);
    }
    this.apiKey = options.apiKey ?? LOCAL_STRIPE_API_KEY;
    this.webhookSecret = options.webhookSecret ?? LOCAL_STRIPE_WEBHOOK_SECRET;
    this.webhookUrl = options.webhookUrl;
    this.state = new LocalStripeState(prices, options.meterPrices ?? {}, options.now ?? (() => new Date()), (event) => this.announce(event));
    if (options.stateFile) this.state.load(options.stateFile);
    this.server = createServer((request, response) => void this.serve(request, response));
  }

  /** Starts the fake on 127.0.0.1 (`options.port`, default a free one). */
  static async start(options: LocalStripeOptions): Promise<LocalStripe> {
    const fake = new LocalStripe(options);
    await new Promise<void>((resolve, reject) => {
      fake.server.once('error', reject);
      fake.server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
    });
    fake.baseUrl = `http://127.0.0.1:${(fake.server.address() as AddressInfo).port}`;
    return fake;
  }

  /** `http://127.0.0.1:<port>`: the adapter's `apiUrl`. */
  get url(): string {
    return this.baseUrl;
  }

  /** Where webhooks go from now on (the app's webhook route); held events are not sent by this. */
  setWebhookUrl(url: string | undefined): void {
    this.webhookUrl = url;
  }

  /** Every event so far, oldest first (Stripe's shapes). */
  get events(): readonly StripeObject[] {
    return this.state.events;
  }

  get deliveries(): readonly WebhookDelivery[] {
    return this.deliveryLog;
  }

  /** Events not sent yet (`autoDeliver: false`). */
  get heldEvents(): readonly StripeObject[] {
    return this.held;
  }

  /** Sends one event (held or already sent: a redelivery, as Stripe's "resend") and waits for the answer. */
  async deliver(eventId: string): Promise<WebhookDelivery> {
    const event = this.state.events.find((candidate) => candidate.id === eventId);
    if (!event) throw new BillingError('FW_ERR_BILLING_PROVIDER_OPTIONS', `LocalStripe: no event ${eventId}`);
    const index = this.held.indexOf(event);
    if (index >= 0) this.held.splice(index, 1);
    return this.send(event);
  }

  /** Resolves once every event queued for delivery so far was sent (or given up on). */
  async idle(): Promise<void> {
    await this.queue;
  }

  /** The customer pays on the checkout page: the subscription is created and the webhooks follow. */
  completeCheckout(sessionId: string): StripeObject {
    return this.mutate(() => publicView(this.state.completeCheckout(sessionId)));
  }

  /** Ends the subscription's period: a paid invoice (`invoice.paid`) and the next period. */
  closePeriod(subscriptionId: string): StripeObject {
    return this.mutate(() => publicView(this.state.closePeriod(subscriptionId)));
  }

  /** Meter events recorded (each identifier once). */
  get meterEvents(): readonly StripeObject[] {
    return [...this.state.meterEvents.values()];
  }

  subscription(id: string): StripeObject {
    return publicView(this.state.subscription(id));
  }

  async stop(): Promise<void> {
    await this.idle();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
    this.server.closeAllConnections();
  }

  // ---- webhooks

  private announce(event: StripeObject): void {
    if (this.options.autoDeliver === false) {
      this.held.push(event);
      return;
    }
    void this.send(event);
  }

  /** Deliveries run one at a time, in the order events happened (a redelivery queues behind them). */
  private send(event: StripeObject): Promise<WebhookDelivery> {
    const delivery = this.queue.then(() => this.post(event));
    this.queue = delivery.then(
      () => undefined,
      () => undefined,
    );
    return delivery;
  }

  private async post(event: StripeObject): Promise<WebhookDelivery> {
    const url = this.webhookUrl;
    const attemptsAllowed = this.options.maxDeliveryAttempts ?? 3;
    let status = 0;
    let attempts = 0;
    if (url) {
      const payload = JSON.stringify(event, null, 2);
      for (attempts = 1; attempts <= attemptsAllowed; attempts++) {
        // Signed at each attempt with the real time, as Stripe does: the receiver checks it against its own clock.
        this.signer ??= import('stripe').then(({ default: StripeSdk }) => new StripeSdk('sk_test_signer_only'));
        const signature = (await this.signer).webhooks.generateTestHeaderString({ payload, secret: this.webhookSecret });
        try {
          const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json; charset=utf-8', 'stripe-signature': signature, 'user-agent': 'Stripe/1.0 (+https://stripe.com/docs/webhooks)' }, body: payload });
          status = response.status;
          await response.arrayBuffer();
          if (response.ok) break;
        } catch {
          status = 0;
        }
        if (attempts < attemptsAllowed) await new Promise((resolve) => setTimeout(resolve, 200 * 2 ** (attempts - 1)));
      }
      attempts = Math.min(attempts, attemptsAllowed);
    }
    const record: WebhookDelivery = { eventId: event.id, type: String(event['type']), attempts, status, delivered: status >= 200 && status < 300 };
    this.deliveryLog.push(record);
    return record;
  }

  // ---- HTTP

  private mutate<T>(fn: () => T): T {
    const result = fn();
    this.save();
    return result;
  }

  /** Written to a temporary file, fsync'd, renamed: a crash leaves the old state or the new one. */
  private save(): void {
    const file = this.options.stateFile;
    if (!file) return;
    const temporary = `${file}.tmp`;
    mkdirSync(path.dirname(file), { recursive: true });
    const fd = openSync(temporary, 'w');
    try {
      writeSync(fd, JSON.stringify(this.state.toJSON()));
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(temporary, file);
  }

  private async serve(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const answer = (status: number, body: unknown, headers: Record<string, string> = {}) => {
      response.writeHead(status, { 'content-type': 'application/json', 'request-id': `req_${Date.now().toString(36)}`, ...headers });
      response.end(JSON.stringify(body));
    };
    try {
      // Local servers answer only the developer: a loopback Host, no cross-site browser request.
      if (!LOOPBACK_HOST.test(request.headers.host ?? '')) return answer(403, { error: { type: 'invalid_request_error', message: 'This local fake answers only on a loopback host' } });
      const url = new URL(request.url ?? '/', this.baseUrl);
      const body = await readBody(request);
      if (url.pathname.startsWith('/checkout/')) return this.checkoutPage(request, response, url, body);
      if (request.headers.origin !== undefined) return answer(403, { error: { type: 'invalid_request_error', message: 'Cross-origin browser requests are refused' } });
      if (request.headers.authorization !== `Bearer ${this.apiKey}`) {
        return answer(401, { error: { type: 'authentication_error', message: 'Invalid API Key provided: use the key the local fake was started with' } }, { 'www-authenticate': 'Bearer realm="Stripe"' });
      }
      const key = request.method === 'POST' ? request.headers['idempotency-key'] : undefined;
      const idempotencyKey = typeof key === 'string' ? `${url.pathname}\n${key}` : undefined;
      const replay = idempotencyKey ? this.idempotent.get(idempotencyKey) : undefined;
      if (replay) return answer(replay.status, JSON.parse(replay.body), { 'idempotent-replayed': 'true' });
      const result = this.mutate(() => this.route(request.method ?? 'GET', url, parseStripeForm(body)));
      if (idempotencyKey) this.idempotent.set(idempotencyKey, { status: 200, body: JSON.stringify(result) });
      return answer(200, result);
    } catch (error) {
      if (error instanceof StripeApiError) return answer(error.status, { error: { type: error.type, message: error.message, ...(error.param ? { param: error.param } : {}) } });
      return answer(500, { error: { type: 'api_error', message: 'The local fake failed; see its log' } });
    }
  }

  private route(method: string, url: URL, form: Record<string, FormValue>): unknown {
    const path = url.pathname;
    const match = (pattern: RegExp) => pattern.exec(path)?.[1];
    const required = (name: string): string => {
      const value = formString(form[name]);
      if (!value) throw new StripeApiError(400, 'invalid_request_error', `Missing required param: ${name}.`, name);
      return value;
    };
    const items = (name: string) =>
      formList(form[name]).map((raw, i) => {
        const item = raw as Record<string, FormValue>;
        const price = formString(item['price']);
        if (!price) throw new StripeApiError(400, 'invalid_request_error', `Missing required param: ${name}[${i}][price].`, `${name}[${i}][price]`);
        // No quantity: 1 for a licensed price; a metered price takes none (the state refuses one).
        const quantity = formString(item['quantity']);
        return { price, ...(quantity !== undefined ? { quantity: Number(quantity) } : {}) };
      });
    let id: string | undefined;

    if (method === 'POST' && path === '/v1/customers') {
      const email = formString(form['email']);
      const name = formString(form['name']);
      return this.state.createCustomer({ ...(email ? { email } : {}), ...(name ? { name } : {}), metadata: formRecord(form['metadata']) });
    }
    if (method === 'GET' && (id = match(/^\/v1\/customers\/([\w-]+)$/))) return this.state.customer(id, 'id');
    if (method === 'POST' && (id = match(/^\/v1\/customers\/([\w-]+)\/balance_transactions$/))) {
      const description = formString(form['description']);
      return this.state.createBalanceTransaction(id, { amount: Number(required('amount')), currency: required('currency'), ...(description ? { description } : {}), metadata: formRecord(form['metadata']) });
    }
    if (method === 'GET' && (id = match(/^\/v1\/customers\/([\w-]+)\/balance_transactions$/))) return { object: 'list', url: url.pathname, has_more: false, data: this.state.balanceTransactionsOf(id) };
    const catalog = this.catalogRoute(method, path, url, form, required);
    if (catalog !== undefined) return catalog;
    if (method === 'POST' && path === '/v1/subscriptions') {
      const trial = formString(form['trial_period_days']);
      return publicView(this.state.createSubscription({ customer: required('customer'), items: items('items'), metadata: formRecord(form['metadata']), ...(trial ? { trialDays: Number(trial) } : {}) }));
    }
    if (method === 'GET' && (id = match(/^\/v1\/subscriptions\/([\w-]+)$/))) return publicView(this.state.subscription(id));
    if (method === 'POST' && (id = match(/^\/v1\/subscriptions\/([\w-]+)$/))) {
      const cancel = formString(form['cancel_at_period_end']);
      const proration = formString(form['proration_behavior']);
      const changes = formList(form['items']).map((raw) => {
        const item = raw as Record<string, FormValue>;
        const itemId = formString(item['id']);
        const price = formString(item['price']);
        const quantity = formString(item['quantity']);
        const deleted = formString(item['deleted']) === 'true';
        return { ...(itemId ? { id: itemId } : {}), ...(price ? { price } : {}), ...(quantity ? { quantity: Number(quantity) } : {}), ...(deleted ? { deleted } : {}) };
      });
      return publicView(this.state.updateSubscription(id, { items: changes, ...(proration ? { prorationBehavior: proration } : {}), ...(cancel ? { cancelAtPeriodEnd: cancel === 'true' } : {}), ...(form['metadata'] ? { metadata: formRecord(form['metadata']) } : {}) }));
    }
    if (method === 'DELETE' && (id = match(/^\/v1\/subscriptions\/([\w-]+)$/))) return publicView(this.state.cancelSubscription(id));
    if (method === 'POST' && path === '/v1/checkout/sessions') {
      const subscriptionData = form['subscription_data'] as Record<string, FormValue> | undefined;
      const reference = formString(form['client_reference_id']);
      return publicView(
        this.state.createCheckoutSession(this.baseUrl, {
          customer: required('customer'),
          lineItems: items('line_items'),
          successUrl: required('success_url'),
          cancelUrl: required('cancel_url'),
          metadata: formRecord(form['metadata']),
          subscriptionMetadata: formRecord(subscriptionData?.['metadata']),
          ...(reference ? { clientReferenceId: reference } : {}),
        }),
      );
    }
    if (method === 'GET' && (id = match(/^\/v1\/checkout\/sessions\/([\w-]+)$/))) {
      const session = this.state.checkoutSessions.get(id);
      if (!session) throw new StripeApiError(404, 'invalid_request_error', `No such checkout session: '${id}'`, 'id');
      return publicView(session);
    }
    if (method === 'POST' && path === '/v1/billing_portal/sessions') {
      const customer = this.state.customer(required('customer'));
      const sessionId = `bps_${customer.id.slice(4)}${Date.now().toString(36)}`;
      return { id: sessionId, object: 'billing_portal.session', customer: customer.id, return_url: required('return_url'), url: `${this.baseUrl}/checkout/portal/${customer.id}`, created: Math.floor(Date.now() / 1000), livemode: false };
    }
    if (method === 'POST' && path === '/v1/billing/meter_events') {
      const payload = formRecord(form['payload']);
      const timestamp = formString(form['timestamp']);
      return this.state.recordMeterEvent({
        eventName: required('event_name'),
        identifier: formString(form['identifier']) ?? `mev_${Date.now().toString(36)}${Math.random().toString(36).slice(2)}`,
        customer: payload['stripe_customer_id'] ?? '',
        value: payload['value'] ?? '',
        timestamp: timestamp ? Number(timestamp) : Math.floor(Date.now() / 1000),
      });
    }
    if (method === 'GET' && path === '/v1/invoices') {
      // Stripe's list, newest first, filtered by customer and subscription as the adapter asks.
      const customer = url.searchParams.get('customer');
      const subscription = url.searchParams.get('subscription');
      const data = [...this.state.invoices.values()]
        .filter((invoice) => (customer === null || invoice['customer'] === customer) && (subscription === null || (invoice['parent'] as { subscription_details?: { subscription?: string } } | null)?.subscription_details?.subscription === subscription))
        .reverse();
      const limit = Math.min(100, Math.max(1, Number(url.searchParams.get('limit') ?? '10') || 10));
      return { object: 'list', url: '/v1/invoices', has_more: data.length > limit, data: data.slice(0, limit) };
    }
    if (method === 'GET' && (id = match(/^\/v1\/invoices\/([\w-]+)$/))) {
      const invoice = this.state.invoices.get(id);
      if (!invoice) throw new StripeApiError(404, 'invalid_request_error', `No such invoice: '${id}'`, 'id');
      return invoice;
    }
    // The fake's own controls (what happens in Stripe's dashboard or on its hosted pages), with the same key.
    if (method === 'POST' && (id = match(/^\/_fake\/checkout\/sessions\/([\w-]+)\/complete$/))) return publicView(this.state.completeCheckout(id));
    if (method === 'POST' && (id = match(/^\/_fake\/subscriptions\/([\w-]+)\/close_period$/))) return publicView(this.state.closePeriod(id));
    if (method === 'GET' && path === '/_fake/events') return { object: 'list', data: this.state.events, deliveries: this.deliveryLog };
    throw new StripeApiError(404, 'invalid_request_error', `Unrecognized request URL (${method}: ${path}). The local fake covers customers, subscriptions, checkout and portal sessions, meter events and invoices (see the billing README).`);
  }

  /** Products, prices (with lookup keys) and billing meters: what `syncStripePlans` creates. */
  private catalogRoute(method: string, path: string, url: URL, form: Record<string, FormValue>, required: (name: string) => string): unknown {
    const id = /^\/v1\/(?:products|prices)\/([\w-]+)$/.exec(path)?.[1];
    const flag = (name: string) => (formString(form[name]) === undefined ? undefined : formString(form[name]) === 'true');
    if (method === 'POST' && path === '/v1/products') {
      const productId = formString(form['id']);
      const active = flag('active');
      return this.state.createProduct({ ...(productId ? { id: productId } : {}), name: required('name'), ...(active !== undefined ? { active } : {}), metadata: formRecord(form['metadata']) });
    }
    if (method === 'GET' && id && path.startsWith('/v1/products/')) return this.state.product(id);
    if (method === 'POST' && id && path.startsWith('/v1/products/')) {
      const name = formString(form['name']);
      const active = flag('active');
      return this.state.updateProduct(id, { ...(name ? { name } : {}), ...(active !== undefined ? { active } : {}), ...(form['metadata'] ? { metadata: formRecord(form['metadata']) } : {}) });
    }
    if (method === 'POST' && path === '/v1/prices') {
      const recurring = (form['recurring'] ?? {}) as Record<string, FormValue>;
      const tiers = formList(form['tiers']).map((raw) => {
        const tier = raw as Record<string, FormValue>;
        const upTo = formString(tier['up_to']);
        return { up_to: upTo === 'inf' || upTo === undefined ? null : Number(upTo), flat_amount: Number(formString(tier['flat_amount']) ?? '0'), unit_amount_decimal: formString(tier['unit_amount_decimal']) ?? formString(tier['unit_amount']) ?? '0' };
      });
      const unit = formString(form['unit_amount_decimal']) ?? formString(form['unit_amount']);
      const lookupKey = formString(form['lookup_key']);
      const nickname = formString(form['nickname']);
      const tiersMode = formString(form['tiers_mode']);
      const meter = formString(recurring['meter']);
      return this.state.createPrice({
        product: required('product'),
        currency: required('currency'),
        billingScheme: formString(form['billing_scheme']) ?? 'per_unit',
        ...(unit !== undefined ? { unitAmountDecimal: unit } : {}),
        ...(tiers.length ? { tiers } : {}),
        ...(tiersMode ? { tiersMode } : {}),
        recurring: { interval: formString(recurring['interval']) ?? 'month', interval_count: 1, usage_type: formString(recurring['usage_type']) ?? 'licensed', meter: meter ?? null },
        ...(lookupKey ? { lookupKey } : {}),
        transferLookupKey: flag('transfer_lookup_key') === true,
        ...(nickname ? { nickname } : {}),
        metadata: formRecord(form['metadata']),
      });
    }
    if (method === 'GET' && path === '/v1/prices') {
      // The SDK sends arrays as lookup_keys[0]=...; lookup_keys[]=... as well.
      const keys = [...url.searchParams].filter(([name]) => /^lookup_keys\[\d*\]$/.test(name)).map(([, value]) => value);
      const active = url.searchParams.get('active');
      const data = this.state.listPrices(keys.length ? keys : undefined, active === null ? undefined : active === 'true');
      return { object: 'list', url: '/v1/prices', has_more: false, data };
    }
    if (method === 'GET' && id && path.startsWith('/v1/prices/')) return this.state.price(id, 'id');
    if (method === 'POST' && id && path.startsWith('/v1/prices/')) {
      const active = flag('active');
      return this.state.updatePrice(id, { ...(active !== undefined ? { active } : {}), ...(form['metadata'] ? { metadata: formRecord(form['metadata']) } : {}) });
    }
    if (method === 'POST' && path === '/v1/billing/meters') {
      const aggregation = (form['default_aggregation'] ?? {}) as Record<string, FormValue>;
      return this.state.createMeter({ displayName: required('display_name'), eventName: required('event_name'), formula: formString(aggregation['formula']) ?? 'sum' });
    }
    const meterId = /^\/v1\/billing\/meters\/([\w-]+)\/deactivate$/.exec(path)?.[1];
    if (method === 'POST' && meterId) return this.state.deactivateMeter(meterId);
    if (method === 'GET' && path === '/v1/billing/meters') return { object: 'list', url: '/v1/billing/meters', has_more: false, data: this.state.listMeters() };
    return undefined;
  }

  /** The hosted checkout page, reduced to one button: what a developer clicks under fw dev. */
  private checkoutPage(request: IncomingMessage, response: ServerResponse, url: URL, body: string): void {
    const id = /^\/checkout\/([\w-]+)$/.exec(url.pathname)?.[1];
    const session = id ? this.state.checkoutSessions.get(id) : undefined;
    if (!session) {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('No such checkout session (or a portal page: the local fake has no portal; manage subscriptions through the app).');
      return;
    }
    if (request.method === 'POST' && new URLSearchParams(body).get('pay') === 'yes') {
      this.mutate(() => this.state.completeCheckout(session.id));
      response.writeHead(303, { location: String(session['success_url']) }).end();
      return;
    }
    const items = (session['fw_line_items'] as { price: string; quantity?: number }[]).map((item) => `<li>${escapeHtml(item.price)} ${item.quantity === undefined ? '(metered: billed on usage)' : `× ${item.quantity}`}</li>`).join('');
    response
      .writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'content-security-policy': "default-src 'none'; form-action 'self'" })
      .end(`<!doctype html><title>Local checkout</title><h1>Local checkout (no card needed)</h1><ul>${items}</ul><p>Status: ${escapeHtml(String(session['status']))}</p><form method="post"><button name="pay" value="yes">Pay</button></form>`);
  }
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) throw new StripeApiError(400, 'invalid_request_error', 'Request body too large');
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}
