import { BillingError } from '../errors.js';
import type { BillingPlans, FeatureLimit, MeteredLimit, MeteredPrice, PlanDefinition, Price, PriceTier } from '../model.js';
import { unitAmountProblem } from './money.js';

/** Plan ids, feature and meter names: what a config key and an SQL value can safely hold. */
export const BILLING_NAME = /^[a-z][a-z0-9_-]{0,62}$/;
const CURRENCY = /^[a-z]{3}$/;
const MAX_TRIAL_DAYS = 730;
/** How long after a period's end late usage still counts in it, unless `graceSeconds` says otherwise. */
export const DEFAULT_GRACE_SECONDS = 3600;
const LIMIT_SHAPE = 'expected true, false, a whole number >= 0 (a limit) or { included, overage? }';

/** Whether a feature's limit is a metered allowance. */
export function isMetered(limit: FeatureLimit | undefined): limit is MeteredLimit {
  return typeof limit === 'object' && limit !== null;
}

function tierProblems(tiers: readonly PriceTier[] | undefined): string[] {
  if (!Array.isArray(tiers) || tiers.length === 0) return [": expected at least one tier, the last with upTo: 'inf'"];
  const out: string[] = [];
  let previous = 0;
  tiers.forEach((tier, i) => {
    const last = i === tiers.length - 1;
    if (last ? tier.upTo !== 'inf' : !(typeof tier.upTo === 'number' && Number.isSafeInteger(tier.upTo) && tier.upTo > previous)) {
      out.push(`.${i}.upTo: ${last ? "expected 'inf' on the last tier" : `expected a whole number above the previous tier's (${previous})`}`);
    }
    if (typeof tier.upTo === 'number') previous = tier.upTo;
    const problem = unitAmountProblem(tier.unitAmount);
    if (problem) out.push(`.${i}.unitAmount: ${problem}`);
    if (tier.flatAmount !== undefined && (!Number.isSafeInteger(tier.flatAmount) || tier.flatAmount < 0)) out.push(`.${i}.flatAmount: expected a whole number of minor units >= 0`);
  });
  return out;
}

/** The problems of one plan, each `path: problem`. */
function planProblems(id: string, plan: PlanDefinition): string[] {
  if (typeof plan !== 'object' || plan === null) return [`plans.${id}: expected a plan object`];
  const out: string[] = [];
  const at = (path: string, problem: string) => out.push(`plans.${id}${path}: ${problem}`);
  if (typeof plan.currency !== 'string' || !CURRENCY.test(plan.currency)) at('.currency', `expected a lower-case ISO 4217 code such as 'usd', got ${JSON.stringify(plan.currency)}`);
  if (plan.trialDays !== undefined && (!Number.isInteger(plan.trialDays) || plan.trialDays < 0 || plan.trialDays > MAX_TRIAL_DAYS)) at('.trialDays', `expected a whole number from 0 to ${MAX_TRIAL_DAYS}`);
  if (plan.interval !== undefined && plan.interval !== 'month' && plan.interval !== 'year') at('.interval', "expected 'month' or 'year'");
  const meters = new Set<string>();
  (plan.prices ?? []).forEach((price: Price, i) => {
    const path = `.prices.${i}`;
    if (price.kind === 'flat') {
      if (!Number.isSafeInteger(price.amount) || price.amount < 0) at(`${path}.amount`, 'expected a whole number of minor units (cents) >= 0');
    } else if (price.kind === 'per_seat') {
      if (!Number.isSafeInteger(price.unitAmount) || price.unitAmount < 0) at(`${path}.unitAmount`, 'expected a whole number of minor units (cents) >= 0');
      if (price.includedSeats !== undefined && (!Number.isSafeInteger(price.includedSeats) || price.includedSeats < 0)) at(`${path}.includedSeats`, 'expected a whole number >= 0');
    } else if (price.kind === 'metered') {
      if (typeof price.meter !== 'string' || !BILLING_NAME.test(price.meter)) at(`${path}.meter`, `expected a meter name (${BILLING_NAME.source})`);
      else if (meters.has(price.meter)) at(`${path}.meter`, `meter "${price.meter}" is priced twice`);
      else meters.add(price.meter);
      out.push(...tierProblems(price.tiers).map((p) => `plans.${id}${path}.tiers${p}`));
    } else {
      at(`${path}.kind`, `expected 'flat', 'per_seat' or 'metered', got ${JSON.stringify((price as { kind?: unknown }).kind)}`);
    }
  });
  for (const [name, limit] of Object.entries(plan.features ?? {})) {
    const path = `.features.${name}`;
    if (!BILLING_NAME.test(name)) at(path, `expected a feature name (${BILLING_NAME.source})`);
    if (typeof limit === 'boolean') continue;
    if (typeof limit === 'number') {
      if (!Number.isSafeInteger(limit) || limit < 0) at(path, LIMIT_SHAPE);
      continue;
    }
    if (!isMetered(limit)) {
      at(path, LIMIT_SHAPE);
      continue;
    }
    if (!Number.isSafeInteger(limit.included) || limit.included < 0) at(`${path}.included`, 'expected a whole number >= 0');
    if (limit.overage !== undefined) {
      const problem = unitAmountProblem(limit.overage);
      if (problem) at(`${path}.overage`, problem);
      if (meters.has(name)) at(path, `meter "${name}" has both a metered price and an overage: keep one`);
    }
  }
  return out;
}

/**
 * Checks the app's plans (the same object `defineApp`'s `billing` validates when the app is built) and returns them;
 * throws `FW_ERR_BILLING_INVALID_PLANS` listing every problem with its path. Runs once, at creation.
 */
export function definePlans<const T extends BillingPlans>(input: T): T {
  if (typeof input !== 'object' || input === null || typeof input.plans !== 'object' || input.plans === null) {
    throw new BillingError('FW_ERR_BILLING_INVALID_PLANS', "Billing needs { plans: { <id>: { currency: 'usd', prices?, features? } }, defaultPlan: '<id>' }.");
  }
  const problems: string[] = [];
  const ids = Object.keys(input.plans);
  if (ids.length === 0) problems.push("plans: declare at least one plan (a free one is { currency: 'usd' })");
  for (const id of ids) {
    if (!BILLING_NAME.test(id)) problems.push(`plans.${id}: expected a plan id (${BILLING_NAME.source})`);
    problems.push(...planProblems(id, input.plans[id]!));
  }
  const currencies = new Set(Object.values(input.plans).map((plan) => plan?.currency));
  if (currencies.size > 1) problems.push(`plans: every plan must bill in one currency (an invoice has one), found ${[...currencies].map((c) => JSON.stringify(c)).join(', ')}`);
  if (!Object.hasOwn(input.plans, input.defaultPlan)) problems.push(`defaultPlan: ${JSON.stringify(input.defaultPlan)} is not a declared plan (plans: ${ids.join(', ')})`);
  if (input.graceSeconds !== undefined && (!Number.isSafeInteger(input.graceSeconds) || input.graceSeconds < 0)) problems.push('graceSeconds: expected a whole number of seconds >= 0');
  if (problems.length) throw new BillingError('FW_ERR_BILLING_INVALID_PLANS', `The billing plans cannot work:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
  return input;
}

/** Every feature some plan declares (what `check` accepts). */
export function declaredFeatures(plans: BillingPlans): Set<string> {
  return new Set(Object.values(plans.plans).flatMap((plan) => Object.keys(plan.features ?? {})));
}

/** Every meter some plan prices or limits (what `track` accepts). */
export function declaredMeters(plans: BillingPlans): Set<string> {
  const out = new Set<string>();
  for (const plan of Object.values(plans.plans)) {
    for (const price of plan.prices ?? []) if (price.kind === 'metered') out.add(price.meter);
    for (const [name, limit] of Object.entries(plan.features ?? {})) if (isMetered(limit)) out.add(name);
  }
  return out;
}

/** A plan's graduated tiers for a meter: its metered price, or the feature's `{ included, overage }`; none: not charged. */
export function meterTiers(plan: PlanDefinition, meter: string): readonly PriceTier[] | undefined {
  const priced = (plan.prices ?? []).find((p): p is MeteredPrice => p.kind === 'metered' && p.meter === meter);
  if (priced) return priced.tiers;
  const limit = plan.features?.[meter];
  if (!isMetered(limit) || limit.overage === undefined) return undefined;
  return limit.included > 0 ? [{ upTo: limit.included, unitAmount: 0 }, { upTo: 'inf', unitAmount: limit.overage }] : [{ upTo: 'inf', unitAmount: limit.overage }];
}
