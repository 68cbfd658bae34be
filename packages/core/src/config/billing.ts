import * as t from 'io-ts';
import type { ConfigProblem } from '../errors.js';
import * as c from './codec.js';
import { joinPath } from './report.js';

/**
 * `billing` of `defineApp`: the app's plans, declared once. `@framework-pro/billing` takes the same object at run time
 * (`createBilling({ plans })`), so the app keeps it in one module that `fw.config.ts` and its functions import; this
 * codec checks it when the app is built (fw dev, synth, deploy), with every problem's path and fix.
 *
 * Money is an integer of the currency's minor unit (cents). A unit price below one minor unit is a decimal string of
 * minor units (`'0.1'`): never a float.
 */

/** An amount in the currency's minor unit (cents): a whole number. */
export type MinorUnits = number;
/** A unit price in minor units: a whole number, or a decimal string for fractions of one (`'0.1'`, at most 12 decimals). */
export type UnitAmount = number | string;
export type BillingInterval = 'month' | 'year';

/** One step of a graduated price: the units up to `upTo` (counted from the previous step) cost `unitAmount` each. */
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

/** An amount per seat per period. */
export interface PerSeatPrice {
  readonly kind: 'per_seat';
  readonly unitAmount: MinorUnits;
  /** Seats included before any is charged. @default 0 */
  readonly includedSeats?: number;
}

/** Usage of a meter in the period on graduated tiers. */
export interface MeteredPrice {
  readonly kind: 'metered';
  readonly meter: string;
  readonly tiers: readonly PriceTier[];
}

export type Price = FlatPrice | PerSeatPrice | MeteredPrice;

/** A metered allowance: `included` units per period, then `overage` per unit (none: a hard limit). */
export interface MeteredLimit {
  readonly included: number;
  /** @default - none: usage past `included` is refused */
  readonly overage?: UnitAmount;
}

/** `true`/`false` (on or off), a whole number (a hard limit), or a metered allowance. */
export type FeatureLimit = boolean | number | MeteredLimit;

/** One plan. */
export interface PlanDefinition {
  /** @default - the plan's id */
  readonly name?: string;
  /** Lower-case ISO 4217 code (`usd`). */
  readonly currency: string;
  /** @default 'month' */
  readonly interval?: BillingInterval;
  /** @default 0 */
  readonly trialDays?: number;
  /** @default [] */
  readonly prices?: readonly Price[];
  /** @default {} */
  readonly features?: Readonly<Record<string, FeatureLimit>>;
}

/** `billing` of `defineApp`. */
export interface BillingConfig {
  /** Plans by id, cheapest first (the upgrade path). */
  readonly plans: Readonly<Record<string, PlanDefinition>>;
  /** The plan of a tenant without a subscription. */
  readonly defaultPlan: string;
  /** Seconds after a period's end during which late usage counts in it. @default 3600 */
  readonly graceSeconds?: number;
}

/** `billing` as the app model carries it: checked, with `graceSeconds` filled in. */
export interface ResolvedBilling extends BillingConfig {
  readonly graceSeconds: number;
}

/** How long after a period's end late usage still counts in it, unless `graceSeconds` says otherwise. */
export const DEFAULT_BILLING_GRACE_SECONDS = 3600;

/**
 * The most bytes the plans may take as JSON: functions get them in one variable (`FW_BILLING_PLANS`), and Lambda
 * allows 4 KB of variables per function in all, shared with the app's other variables.
 */
export const MAX_BILLING_PLANS_BYTES = 2048;

/** The checked config with its defaults, as functions receive it. */
export function resolveBilling(billing: BillingConfig): ResolvedBilling {
  return { ...billing, graceSeconds: billing.graceSeconds ?? DEFAULT_BILLING_GRACE_SECONDS };
}

/** The plans as the `FW_BILLING_PLANS` variable carries them (compact JSON). */
export function billingPlansVariable(billing: ResolvedBilling): string {
  return JSON.stringify(billing);
}

/** Plan ids, feature and meter names. */
export const BILLING_NAME = /^[a-z][a-z0-9_-]{0,62}$/;
const billingName = c.pattern('a name of 1 to 63 lowercase letters, digits, "_" or "-", starting with a letter', BILLING_NAME);
const minorUnits = c.integer(0, Number.MAX_SAFE_INTEGER);
const count = c.integer(0, 1_000_000_000);

function custom<A>(name: string, ok: (u: unknown) => u is A): c.Codec<A> {
  return new t.Type<A, A, unknown>(name, ok, (u, ctx) => (ok(u) ? t.success(u) : t.failure(u, ctx, c.problemMessage('FW_ERR_CONFIG_INVALID_VALUE', `expected ${name}, got ${c.describeValue(u)}`))), t.identity);
}

const DECIMAL = /^\d{1,15}(\.\d{1,12})?$/;
const unitAmount = custom<UnitAmount>(
  "a whole number of minor units (cents) or a decimal string of them such as '0.1' (at most 12 decimals; a float is refused so no amount is ever rounded by accident)",
  (u): u is UnitAmount => (typeof u === 'number' && Number.isSafeInteger(u) && u >= 0) || (typeof u === 'string' && DECIMAL.test(u)),
);
const upTo = custom<number | 'inf'>("a whole number of units >= 1, or 'inf' on the last tier", (u): u is number | 'inf' => u === 'inf' || (typeof u === 'number' && Number.isSafeInteger(u) && u >= 1));

const priceTier = c.struct<PriceTier>('a price tier { upTo, unitAmount, flatAmount? }', {
  upTo: c.required(upTo),
  unitAmount: c.required(unitAmount),
  flatAmount: c.optional(minorUnits),
});

const price = c.tagged<Price>('a price { kind: "flat" | "per_seat" | "metered", ... }', 'kind', {
  flat: c.struct<FlatPrice>('a flat price { kind: "flat", amount }', { kind: c.required(c.oneOf(['flat'] as const)), amount: c.required(minorUnits) }) as c.Codec<Price>,
  per_seat: c.struct<PerSeatPrice>('a per-seat price { kind: "per_seat", unitAmount, includedSeats? }', {
    kind: c.required(c.oneOf(['per_seat'] as const)),
    unitAmount: c.required(minorUnits),
    includedSeats: c.optional(count),
  }) as c.Codec<Price>,
  metered: c.struct<MeteredPrice>('a metered price { kind: "metered", meter, tiers }', {
    kind: c.required(c.oneOf(['metered'] as const)),
    meter: c.required(billingName),
    tiers: c.required(c.array(priceTier, { minLength: 1, maxLength: 20 })),
  }) as c.Codec<Price>,
});

const meteredLimit = c.struct<MeteredLimit>('a metered allowance { included, overage? }', { included: c.required(count), overage: c.optional(unitAmount) });
const LIMIT = 'true, false, a whole number >= 0 (a limit) or { included, overage? } (a metered allowance)';
const featureLimit = new t.Type<FeatureLimit, FeatureLimit, unknown>(
  LIMIT,
  (u): u is FeatureLimit => typeof u === 'boolean' || count.is(u) || meteredLimit.is(u),
  (u, ctx) => {
    if (typeof u === 'boolean') return t.success(u);
    if (c.isPlainObject(u)) return meteredLimit.validate(u, ctx);
    return count.is(u) ? t.success(u) : t.failure(u, ctx, c.problemMessage('FW_ERR_CONFIG_INVALID_VALUE', `expected ${LIMIT}, got ${c.describeValue(u)}`));
  },
  t.identity,
);

const plan = c.struct<PlanDefinition>('a plan { currency, prices?, features?, trialDays?, interval?, name? }', {
  name: c.optional(c.text(100)),
  currency: c.required(c.pattern("a lower-case ISO 4217 currency code such as 'usd'", /^[a-z]{3}$/)),
  interval: c.optional(c.oneOf(['month', 'year'] as const)),
  trialDays: c.optional(c.integer(0, 730)),
  prices: c.optional(c.array(price, { maxLength: 20 })),
  features: c.optional(c.record(billingName, featureLimit)),
});

export const billingCodec = c.struct<BillingConfig>('billing { plans, defaultPlan, graceSeconds? }', {
  plans: c.required(c.record(billingName, plan)),
  defaultPlan: c.required(billingName),
  graceSeconds: c.optional(c.integer(0, 31 * 86_400)),
});

/** What the codec cannot see field by field: the default plan exists, tiers ascend, one currency, no meter priced twice. */
export function checkBilling(billing: BillingConfig, root = 'billing'): ConfigProblem[] {
  const problems: ConfigProblem[] = [];
  const ids = Object.keys(billing.plans);
  const invalid = (path: string, message: string) => problems.push({ code: 'FW_ERR_CONFIG_INVALID_VALUE', path, message });
  if (ids.length === 0) invalid(joinPath(root, 'plans'), "declare at least one plan (a free one is { currency: 'usd' })");
  if (!Object.hasOwn(billing.plans, billing.defaultPlan)) {
    invalid(joinPath(root, 'defaultPlan'), `${JSON.stringify(billing.defaultPlan)} is not a declared plan: expected one of ${ids.map((id) => JSON.stringify(id)).join(', ')}`);
  }
  const size = Buffer.byteLength(billingPlansVariable(resolveBilling(billing)));
  if (size > MAX_BILLING_PLANS_BYTES) {
    invalid(root, `the plans take ${size} bytes as JSON, above ${MAX_BILLING_PLANS_BYTES}: functions receive them in one variable and Lambda allows 4 KB of variables in all; shorten plan names and descriptions or drop unused features`);
  }
  const currencies = [...new Set(Object.values(billing.plans).map((p) => p.currency))];
  if (currencies.length > 1) invalid(joinPath(root, 'plans'), `every plan must bill in one currency (an invoice has one), found ${currencies.join(', ')}: pick one`);
  for (const [id, p] of Object.entries(billing.plans)) {
    const meters = new Set<string>();
    (p.prices ?? []).forEach((pr, i) => {
      const at = joinPath(joinPath(joinPath(joinPath(root, 'plans'), id), 'prices'), String(i));
      if (pr.kind !== 'metered') return;
      if (meters.has(pr.meter)) invalid(`${at}.meter`, `meter "${pr.meter}" is priced twice on plan "${id}": keep one price per meter`);
      meters.add(pr.meter);
      let previous = 0;
      pr.tiers.forEach((tier, j) => {
        const last = j === pr.tiers.length - 1;
        if (last && tier.upTo !== 'inf') invalid(`${at}.tiers[${j}].upTo`, `the last tier must have upTo: 'inf', got ${c.describeValue(tier.upTo)}`);
        if (!last && (tier.upTo === 'inf' || tier.upTo <= previous)) invalid(`${at}.tiers[${j}].upTo`, `expected a whole number above the previous tier's (${previous}), got ${c.describeValue(tier.upTo)}; only the last tier is 'inf'`);
        if (typeof tier.upTo === 'number') previous = tier.upTo;
      });
    });
    for (const [feature, limit] of Object.entries(p.features ?? {})) {
      if (typeof limit === 'object' && limit.overage !== undefined && meters.has(feature)) {
        invalid(joinPath(joinPath(joinPath(joinPath(root, 'plans'), id), 'features'), feature), `meter "${feature}" has both a metered price and an overage on plan "${id}": keep one`);
      }
    }
  }
  return problems;
}
