import Stripe from 'stripe';
import { BillingError, BillingWebhookError } from '../../errors.js';
import type {
  BillingEvent,
  BillingProvider,
  CancelInput,
  ChangePlanInput,
  CheckoutSessionInput,
  CreateCustomerInput,
  CreditCustomerInput,
  CreateSubscriptionInput,
  FindInvoiceInput,
  PortalSessionInput,
  ProrationMode,
  ProviderCredit,
  ProviderCustomer,
  ProviderInvoice,
  ProviderSession,
  ProviderSubscription,
  PushUsageResult,
  UsagePush,
} from '../billing-provider.js';
import { usageIdempotencyKey } from '../usage-idempotency-key.js';
import { TENANT_METADATA_KEY, toBillingEvent, toProviderInvoice, toProviderSubscription } from './stripe-objects.js';
import { stripeClient as client } from './stripe-client.js';
import { planChangeItems, planItems, type PlanStripePrices } from './subscription-items.js';
import type { StripeProviderOptions } from './stripe-options.js';
import { verifyStripeSignature } from './verify-stripe-signature.js';

const PRORATION: Readonly<Record<ProrationMode, Stripe.SubscriptionUpdateParams.ProrationBehavior>> = {
  prorate: 'create_prorations',
  invoice_now: 'always_invoice',
  none: 'none',
};

function checkOptions(options: StripeProviderOptions): void {
  const problem = (message: string) => new BillingError('FW_ERR_BILLING_PROVIDER_OPTIONS', `stripeProvider: ${message}`);
  if (!options.apiKey) throw problem('apiKey is empty; set the secret key (under fw dev, the local fake\'s key)');
  if (!options.webhookSecret) throw problem('webhookSecret is empty; set the endpoint\'s signing secret (whsec_...)');
  if (Object.keys(options.prices).length === 0) throw problem('prices names no plan; map each plan of the config to its Stripe price id');
  for (const [plan, meters] of Object.entries(options.meteredPrices ?? {})) {
    if (!Object.hasOwn(options.prices, plan)) throw problem(`meteredPrices names plan ${JSON.stringify(plan)}, which prices does not map; give its licensed price in prices`);
    for (const [meter, price] of Object.entries(meters)) {
      if (!price) throw problem(`meteredPrices.${plan}.${meter} is empty; give the metered price id (syncStripePlans' meteredPrices)`);
      if (Object.values(options.prices).includes(price)) throw problem(`meteredPrices.${plan}.${meter} is ${price}, a plan's licensed price; give the metered price of the meter`);
    }
  }
  if (options.toleranceSeconds !== undefined && !(options.toleranceSeconds > 0)) throw problem('toleranceSeconds must be above 0');
  if (options.apiUrl !== undefined && !/^https?:\/\/[^/]+\/?$/.test(options.apiUrl)) throw problem(`apiUrl must be a scheme and host (http://127.0.0.1:12111), not ${JSON.stringify(options.apiUrl)}`);
}

/**
 * The Stripe adapter: customers, subscriptions, checkout and portal sessions, billing meter events and verified
 * webhooks, on the `stripe` package. The tenant id rides in `metadata.tenant_id` of every object it creates, so
 * webhooks name the tenant without a lookup.
 */
export function stripeProvider(options: StripeProviderOptions): BillingProvider {
  checkOptions(options);
  const stripe = client(options);
  const planOfPriceMap = new Map(Object.entries(options.prices).map(([plan, price]) => [price, plan]));
  const planOfPrice = (priceId: string) => planOfPriceMap.get(priceId);
  const priceOf = (plan: string): string => {
    const price = Object.hasOwn(options.prices, plan) ? options.prices[plan] : undefined;
    if (!price) throw new BillingError('FW_ERR_BILLING_UNKNOWN_PLAN', `stripeProvider: no Stripe price for plan ${JSON.stringify(plan)}; add it to prices (known: ${Object.keys(options.prices).join(', ')})`);
    return price;
  };
  // Metered price id -> meter, to tell which meter an item of a subscription bills when the plan changes.
  const meterOfPriceMap = new Map(Object.values(options.meteredPrices ?? {}).flatMap((meters) => Object.entries(meters).map(([meter, price]) => [price, meter] as const)));
  const meterOfPrice = (price: Stripe.Price): string | undefined => meterOfPriceMap.get(price.id) ?? price.metadata?.['fw_meter'];
  const pricesOf = (plan: string): PlanStripePrices => ({ licensed: priceOf(plan), metered: options.meteredPrices?.[plan] ?? {} });
  const meterOf = (meter: string): string => (options.meters && Object.hasOwn(options.meters, meter) ? options.meters[meter]! : meter);
  const subscription = (value: Stripe.Subscription): ProviderSubscription => toProviderSubscription(value, planOfPrice);
  // Stripe's own errors carry request ids and messages for the log; the app sees one coded error with the cause.
  const call = async <T>(what: string, fn: () => Promise<T>): Promise<T> => {
    try {
      return await fn();
    } catch (error) {
      if (error instanceof BillingError) throw error;
      const message = error instanceof Error ? error.message : String(error);
      throw new BillingError('FW_ERR_BILLING_PROVIDER_FAILED', `Stripe ${what} failed: ${message}`, { cause: error });
    }
  };

  return {
    name: 'stripe',

    createCustomer: (input: CreateCustomerInput): Promise<ProviderCustomer> =>
      call('customers.create', async () => {
        const customer = await stripe.customers.create(
          { metadata: { [TENANT_METADATA_KEY]: input.tenantId }, ...(input.email ? { email: input.email } : {}), ...(input.name ? { name: input.name } : {}) },
          // One customer per tenant even when the call is retried after a lost answer.
          { idempotencyKey: `fw-customer-${input.tenantId}` },
        );
        return { id: customer.id, tenantId: input.tenantId };
      }),

    createSubscription: (input: CreateSubscriptionInput): Promise<ProviderSubscription> =>
      call('subscriptions.create', async () =>
        subscription(
          await stripe.subscriptions.create({
            customer: input.customerId,
            items: planItems(pricesOf(input.plan), input.seats ?? 1),
            metadata: { [TENANT_METADATA_KEY]: input.tenantId },
            ...(input.trialDays ? { trial_period_days: input.trialDays } : {}),
          }),
        ),
      ),

    getSubscription: (subscriptionId: string): Promise<ProviderSubscription> => call('subscriptions.retrieve', async () => subscription(await stripe.subscriptions.retrieve(subscriptionId))),

    changePlan: (input: ChangePlanInput): Promise<ProviderSubscription> =>
      call('subscriptions.update', async () => {
        const current = await stripe.subscriptions.retrieve(input.subscriptionId);
        return subscription(
          await stripe.subscriptions.update(input.subscriptionId, {
            // The licensed item moves; metered items move, go or come with the meters of the new plan.
            items: planChangeItems(current, pricesOf(input.plan), input.seats, { planOfPrice, meterOfPrice }),
            proration_behavior: PRORATION[input.proration ?? 'prorate'],
          }),
        );
      }),

    cancel: (input: CancelInput): Promise<ProviderSubscription> =>
      call('subscriptions.cancel', async () =>
        subscription(input.atPeriodEnd ? await stripe.subscriptions.update(input.subscriptionId, { cancel_at_period_end: true }) : await stripe.subscriptions.cancel(input.subscriptionId)),
      ),

    createCheckoutSession: (input: CheckoutSessionInput): Promise<ProviderSession> =>
      call('checkout.sessions.create', async () => {
        const session = await stripe.checkout.sessions.create({
          mode: 'subscription',
          customer: input.customerId,
          client_reference_id: input.tenantId,
          line_items: planItems(pricesOf(input.plan), input.seats ?? 1),
          success_url: input.successUrl,
          cancel_url: input.cancelUrl,
          metadata: { [TENANT_METADATA_KEY]: input.tenantId },
          subscription_data: { metadata: { [TENANT_METADATA_KEY]: input.tenantId } },
        });
        if (!session.url) throw new BillingError('FW_ERR_BILLING_PROVIDER_FAILED', `Stripe checkout session ${session.id} has no url`);
        return { id: session.id, url: session.url };
      }),

    createPortalSession: (input: PortalSessionInput): Promise<ProviderSession> =>
      call('billingPortal.sessions.create', async () => {
        const session = await stripe.billingPortal.sessions.create({ customer: input.customerId, return_url: input.returnUrl });
        return { id: session.id, url: session.url };
      }),

    async pushUsage(usage: readonly UsagePush[]): Promise<PushUsageResult> {
      for (const record of usage) {
        if (!Number.isSafeInteger(record.quantity) || record.quantity < 0) throw new BillingError('FW_ERR_BILLING_USAGE', `pushUsage: quantity must be a whole number >= 0, got ${record.quantity} (${record.meter} of ${record.tenantId})`);
        if (!Number.isSafeInteger(record.sequence) || record.sequence < 0) throw new BillingError('FW_ERR_BILLING_USAGE', `pushUsage: sequence must be a whole number >= 0, got ${record.sequence}`);
        if (!record.customerId) throw new BillingError('FW_ERR_BILLING_USAGE', `pushUsage: no customer id for tenant ${record.tenantId}; create the customer first`);
      }
      let pushed = 0;
      for (const record of usage) {
        const key = usageIdempotencyKey(record.tenantId, record.meter, record.periodStart, record.sequence);
        await call('billing.meterEvents.create', () =>
          stripe.billing.meterEvents.create(
            {
              event_name: meterOf(record.meter),
              // Stripe deduplicates meter events by `identifier`; the idempotency key covers the SDK's own retries.
              identifier: key,
              timestamp: Math.floor(record.timestamp.getTime() / 1000),
              payload: { stripe_customer_id: record.customerId, value: String(record.quantity) },
            },
            { idempotencyKey: key },
          ),
        );
        pushed += 1;
      }
      return { pushed };
    },

    creditCustomer: (input: CreditCustomerInput): Promise<ProviderCredit> =>
      call('customers.createBalanceTransaction', async () => {
        if (!Number.isSafeInteger(input.amountCents) || input.amountCents <= 0) throw new BillingError('FW_ERR_BILLING_USAGE', `creditCustomer: amount must be a whole number of minor units > 0, got ${input.amountCents}`);
        const transaction = await stripe.customers.createBalanceTransaction(
          input.customerId,
          // Negative: a credit the customer's next invoices use.
          { amount: -input.amountCents, currency: input.currency, description: input.reason, metadata: { [TENANT_METADATA_KEY]: input.tenantId, fw_credit_id: input.creditId } },
          // One balance transaction per credit, however often a retry sends it.
          { idempotencyKey: `fw-credit-${input.tenantId}-${input.creditId}` },
        );
        return { id: transaction.id };
      }),

    findInvoice: (input: FindInvoiceInput): Promise<ProviderInvoice | undefined> =>
      call('invoices.list', async () => {
        const start = Math.floor(input.periodStart.getTime() / 1000);
        // The customer's invoices, newest first; the period's is the finalized one whose usage period starts there
        // (drafts can still change, a void one was replaced).
        for await (const invoice of stripe.invoices.list({ customer: input.customerId, limit: 100 })) {
          if (invoice.period_start === start && (invoice.status === 'paid' || invoice.status === 'open' || invoice.status === 'uncollectible')) return toProviderInvoice(invoice);
          if (invoice.created < start) break;
        }
        return undefined;
      }),

    async parseWebhook(rawBody, headers): Promise<BillingEvent> {
      const raw = typeof rawBody === 'string' ? rawBody : rawBody.toString('utf8');
      const event = verifyStripeSignature(stripe, raw, headers, options.webhookSecret, options.toleranceSeconds ?? 300);
      if (typeof event.id !== 'string' || typeof event.type !== 'string' || typeof event.data?.object !== 'object' || event.data.object === null) {
        throw new BillingWebhookError('BILLING_WEBHOOK_INVALID_PAYLOAD', 'The webhook is signed but is not a Stripe event (no id, type or data.object)');
      }
      return toBillingEvent(event, planOfPrice);
    },
  };
}
