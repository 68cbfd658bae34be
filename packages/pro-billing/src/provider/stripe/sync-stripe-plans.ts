import { createHash } from 'node:crypto';
import Stripe from 'stripe';
import { BillingError } from '../../errors.js';
import type { BillingPlans } from '../../model.js';
import { definePlans } from '../../plans/index.js';
import { stripeClient, type StripeClientOptions } from './stripe-client.js';
import { stripePlanPrices, stripeProductId, type StripePriceSpec, type StripeTierSpec } from './stripe-plan-prices.js';

export interface SyncStripePlansOptions extends StripeClientOptions {
  /**
   * Stripe billing meter `event_name` per meter of the config (as `stripeProvider`'s `meters`).
   * @default - the meter's own name
   */
  readonly meters?: Readonly<Record<string, string>>;
}

/** What a sync did, and the ids the adapter needs. */
export interface SyncStripePlansResult {
  /** Plan → its licensed price id: `stripeProvider`'s `prices`. */
  readonly prices: Readonly<Record<string, string>>;
  /** Plan → meter → its metered price id. */
  readonly meteredPrices: Readonly<Record<string, Readonly<Record<string, string>>>>;
  /** Meter of the config → Stripe billing meter id. */
  readonly meters: Readonly<Record<string, string>>;
  /** Lookup keys whose price was created (new, or changed: the key moved to the new price). */
  readonly created: readonly string[];
  /** Lookup keys whose price already matched the config. */
  readonly unchanged: readonly string[];
  /** Products created or updated (name). */
  readonly products: { readonly created: readonly string[]; readonly updated: readonly string[] };
}

function normalTiers(tiers: readonly (Stripe.Price.Tier | StripeTierSpec)[] | null | undefined): string {
  return JSON.stringify((tiers ?? []).map((t) => [t.up_to ?? null, t.flat_amount ?? 0, String(t.unit_amount_decimal ?? ('unit_amount' in t ? t.unit_amount : null) ?? '0')]));
}

/** Whether Stripe's price already is what the spec asks (prices are immutable: any difference means a new price). */
function sameAsSpec(price: Stripe.Price, spec: StripePriceSpec, meterId: string | undefined): boolean {
  const product = typeof price.product === 'string' ? price.product : price.product.id;
  return (
    price.active &&
    product === spec.product &&
    price.currency === spec.currency &&
    price.billing_scheme === 'tiered' &&
    price.tiers_mode === 'graduated' &&
    price.recurring?.interval === 'month' &&
    price.recurring.usage_type === spec.usageType &&
    (spec.usageType === 'licensed' || price.recurring.meter === meterId) &&
    normalTiers(price.tiers) === normalTiers(spec.tiers)
  );
}

/**
 * Creates or updates the config's plans as Stripe products and prices, idempotently: one product per plan
 * (`fw_plan_<plan>`), one graduated licensed price per plan (lookup key `fw_<plan>`) and one metered price per meter
 * the plan charges (`fw_<plan>__<meter>`, on a billing meter found or created by event name). A price that matches
 * is kept; one that differs (prices are immutable on Stripe) is replaced by a new price that takes the lookup key
 * over (`transfer_lookup_key`); subscriptions on the old price keep it until moved. Run it after changing the plans
 * (the example: `npx tsx scripts/sync-stripe-plans.ts`), then give `prices` to `stripeProvider`.
 */
export async function syncStripePlans(plans: BillingPlans, options: SyncStripePlansOptions): Promise<SyncStripePlansResult> {
  if (!options.apiKey) throw new BillingError('FW_ERR_BILLING_PROVIDER_OPTIONS', 'syncStripePlans: apiKey is empty; set the secret key (under fw dev, the local fake\'s key)');
  const checked = definePlans(plans);
  const stripe = stripeClient(options);
  const call = async <T>(what: string, fn: () => Promise<T>): Promise<T> => {
    try {
      return await fn();
    } catch (error) {
      if (error instanceof BillingError) throw error;
      throw new BillingError('FW_ERR_BILLING_PROVIDER_FAILED', `Stripe ${what} failed: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
    }
  };

  // Products: retrieved by their own id, created when missing, renamed when the plan's name changed.
  const products = { created: [] as string[], updated: [] as string[] };
  for (const [plan, definition] of Object.entries(checked.plans)) {
    const id = stripeProductId(plan);
    const name = definition.name ?? plan;
    const existing = await call('products.retrieve', async () => {
      try {
        return await stripe.products.retrieve(id);
      } catch (error) {
        if ((error as { statusCode?: number }).statusCode === 404) return undefined;
        throw error;
      }
    });
    if (!existing) {
      await call('products.create', () => stripe.products.create({ id, name, metadata: { fw_plan: plan } }, { idempotencyKey: `fw-product-${id}` }));
      products.created.push(id);
    } else if (existing.name !== name || !existing.active) {
      await call('products.update', () => stripe.products.update(id, { name, active: true }));
      products.updated.push(id);
    }
  }

  // Billing meters, by event name.
  const specs = stripePlanPrices(checked);
  const eventName = (meter: string) => (options.meters && Object.hasOwn(options.meters, meter) ? options.meters[meter]! : meter);
  const meters: Record<string, string> = {};
  const wanted = [...new Set(specs.flatMap((s) => (s.meter === undefined ? [] : [s.meter])))];
  if (wanted.length) {
    const existing = new Map<string, string>();
    // Active meters only: a deactivated meter counts no events, so prices on it would never bill usage.
    for await (const meter of stripe.billing.meters.list({ status: 'active', limit: 100 })) if (meter.status === 'active') existing.set(meter.event_name, meter.id);
    for (const meter of wanted) {
      meters[meter] =
        existing.get(eventName(meter)) ??
        (await call('billing.meters.create', () => stripe.billing.meters.create({ display_name: meter, event_name: eventName(meter), default_aggregation: { formula: 'sum' } }, { idempotencyKey: `fw-meter-${eventName(meter)}` }))).id;
    }
  }

  // Prices, by lookup key (10 keys per list call, Stripe's limit).
  const current = new Map<string, Stripe.Price>();
  for (let i = 0; i < specs.length; i += 10) {
    const keys = specs.slice(i, i + 10).map((s) => s.lookupKey);
    const page = await call('prices.list', () => stripe.prices.list({ lookup_keys: keys, limit: 100, expand: ['data.tiers'] }));
    for (const price of page.data) if (price.lookup_key) current.set(price.lookup_key, price);
  }
  const prices: Record<string, string> = {};
  const meteredPrices: Record<string, Record<string, string>> = {};
  const created: string[] = [];
  const unchanged: string[] = [];
  for (const spec of specs) {
    const meterId = spec.meter === undefined ? undefined : meters[spec.meter];
    let price = current.get(spec.lookupKey);
    if (price && sameAsSpec(price, spec, meterId)) {
      unchanged.push(spec.lookupKey);
    } else {
      // The key is derived from what the price is: two runs at once create it once.
      const digest = createHash('sha256').update(JSON.stringify([spec, meterId])).digest('hex').slice(0, 32);
      price = await call('prices.create', () =>
        stripe.prices.create(
          {
            product: spec.product,
            currency: spec.currency,
            billing_scheme: 'tiered',
            tiers_mode: 'graduated',
            tiers: spec.tiers.map((t) => ({ up_to: t.up_to ?? 'inf', flat_amount: t.flat_amount, unit_amount_decimal: Stripe.Decimal.from(t.unit_amount_decimal) })),
            recurring: { interval: 'month', usage_type: spec.usageType, ...(meterId ? { meter: meterId } : {}) },
            lookup_key: spec.lookupKey,
            transfer_lookup_key: true,
            nickname: spec.meter === undefined ? spec.plan : `${spec.plan} ${spec.meter}`,
            metadata: { fw_plan: spec.plan, ...(spec.meter === undefined ? {} : { fw_meter: spec.meter }) },
          },
          { idempotencyKey: `fw-price-${spec.lookupKey}-${digest}` },
        ),
      );
      created.push(spec.lookupKey);
    }
    if (spec.meter === undefined) prices[spec.plan] = price.id;
    else (meteredPrices[spec.plan] ??= {})[spec.meter] = price.id;
  }
  return { prices, meteredPrices, meters, created, unchanged, products };
}
