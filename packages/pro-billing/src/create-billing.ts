import { getDatabase, type Queryable } from '@framework/data';
import { currentTenant, type HandlerContext, type Middleware } from '@framework/runtime';
import { BillingError } from './errors.js';
import { allows, limitOf, PlanCache, requireFeatureMiddleware, upgradeFor, type EntitlementDecision, type RequestedAmount, type TenantPlan } from './entitlements/index.js';
import { closePeriod, grantCredit, readInvoice, reconcileInvoice, type GrantedCredit, type InvoiceReconciliation } from './invoicing/index.js';
import type { BillingProvider } from './provider/billing-provider.js';
import { checkUsage, insertUsage, usageIn, type TrackInput, type Tracked } from './metering/index.js';
import type { BillingPeriod, BillingPlans, Invoice, SubscriptionChange } from './model.js';
import { appPlans, declaredFeatures, declaredMeters, definePlans, isMetered } from './plans/index.js';
import { applySubscriptionChange, type AppliedSubscriptionChange } from './subscriptions/index.js';

export interface BillingOptions<P extends BillingPlans> {
  /**
   * The app's plans.
   * @default - the app's: `billing` of fw.config.ts, which fw dev and the stack give every function (`appPlans()`)
   */
  readonly plans?: P;
  /**
   * The database with the billing tables: a `Database`, or a function giving one (called per use, so a handler's
   * `getDatabase()` pool is picked up lazily).
   * @default - getDatabase(): the app's only database
   */
  readonly db?: Queryable | (() => Queryable);
  /**
   * How long a tenant's plan is kept in process after it was read: checks within it cost no round trip. A plan
   * change made in this process (`applySubscriptionChange`) is seen at once; one made elsewhere within this time.
   * @default 5
   */
  readonly cacheSeconds?: number;
  /** The clock (tests drive periods with it). @default - the system clock */
  readonly clock?: () => Date;
}

/** Plan ids and feature names of the app's plans, for typed calls. */
type FeatureOf<P extends BillingPlans> = { [K in keyof P['plans']]: keyof NonNullable<P['plans'][K]['features']> }[keyof P['plans']] & string;

/** What `createBilling` returns. */
export interface Billing<P extends BillingPlans = BillingPlans> {
  readonly plans: P;
  /**
   * Whether the tenant's plan allows `requested` of `feature` (for a limit: the total the tenant would reach; for a
   * metered feature: the units about to be used). Read from the snapshot (cached `cacheSeconds`), no network.
   */
  check(tenant: string, feature: FeatureOf<P>, requested?: number): Promise<EntitlementDecision>;
  /**
   * Middleware: 402 `FEATURE_LIMIT_EXCEEDED` (403 `FEATURE_LIMIT_REACHED` when no plan allows more) before the
   * route runs. `requested`: a number, or `(ctx) => number` (current seats + 1). An unknown feature throws here.
   */
  requireFeature(feature: FeatureOf<P>, requested?: RequestedAmount): Middleware<HandlerContext>;
  /** Records usage once per idempotency key, in the caller's transaction. */
  track(tx: Queryable, input: TrackInput): Promise<Tracked>;
  /** Units of `meter` the tenant used in `period` (default: its current period). */
  usage(tenant: string, meter: string, period?: BillingPeriod): Promise<number>;
  /** The plan that applies to the tenant now and its current period. */
  planOf(tenant: string): Promise<TenantPlan>;
  /** Writes a subscription change (monotonic by version) and forgets the cached plan of the tenant. */
  applySubscriptionChange(tx: Queryable, change: SubscriptionChange): Promise<AppliedSubscriptionChange>;
  /** Closes the tenant's period into one invoice (idempotent). `now` defaults to the clock. */
  closePeriod(tenant: string, period: BillingPeriod, options?: { readonly now?: Date }): Promise<Invoice>;
  /** The invoice of the tenant's period starting at `periodStart`, if closed. */
  invoice(tenant: string, periodStart: Date): Promise<Invoice | undefined>;
  /**
   * Compares the tenant's closed period (starting at `periodStart`) with the provider's invoice for it: `matched`
   * (stored), `mismatch` (code FW_ERR_BILLING_INVOICE_MISMATCH, both totals and line lists), or not yet invoiced.
   */
  reconcile(tenant: string, periodStart: Date, provider: Pick<BillingProvider, 'findInvoice'>): Promise<InvoiceReconciliation>;
  /**
   * Grants a credit (minor units) the next closes use; with `{ provider }` also recorded at the provider (its next
   * invoice uses it too, so a credited period reconciles).
   */
  grantCredit(tx: Queryable, tenant: string, amount: number, reason: string, options?: { readonly provider?: Pick<BillingProvider, 'creditCustomer'> }): Promise<GrantedCredit>;
  /** Forgets cached plans (one tenant's, or all). */
  invalidate(tenant?: string): void;
}

const DEFAULT_CACHE_SECONDS = 5;

/** Plans checked once, the database and the cache wired: the app's one billing object (`src/lib/billing.ts`). */
export function createBilling<const P extends BillingPlans = BillingPlans>(options: BillingOptions<P> = {}): Billing<P> {
  const plans = (options.plans === undefined ? appPlans() : definePlans(options.plans)) as P;
  const cacheSeconds = options.cacheSeconds ?? DEFAULT_CACHE_SECONDS;
  if (!Number.isFinite(cacheSeconds) || cacheSeconds < 0) throw new BillingError('FW_ERR_BILLING_INVALID_PLANS', `cacheSeconds must be a number of seconds >= 0, got ${String(cacheSeconds)}.`);
  const source = options.db;
  const db = (): Queryable => (source === undefined ? getDatabase() : typeof source === 'function' ? source() : source);
  const clock = options.clock ?? (() => new Date());
  const cache = new PlanCache(plans, db, cacheSeconds * 1000, clock);
  const features = declaredFeatures(plans);
  const meters = declaredMeters(plans);

  const knownFeature = (feature: string): void => {
    if (!features.has(feature)) {
      throw new BillingError('FW_ERR_BILLING_UNKNOWN_FEATURE', `No plan declares the feature ${JSON.stringify(feature)} (features: ${[...features].join(', ') || 'none'}): declare it on the plans (false where it is off), or fix the name.`);
    }
  };

  const check = async (tenant: string, feature: string, requested = 1): Promise<EntitlementDecision> => {
    knownFeature(feature);
    if (!Number.isSafeInteger(requested) || requested < 0) throw new BillingError('FW_ERR_BILLING_INVALID_USAGE', `The amount checked must be a whole number >= 0, got ${String(requested)}.`);
    const { planId, period } = await cache.planOf(tenant);
    const limit = plans.plans[planId]!.features?.[feature];
    // Only a metered allowance without overage needs this period's usage (one indexed sum); everything else is
    // answered from the cached plan alone.
    const used = isMetered(limit) && limit.overage === undefined ? await usageIn(db(), tenant, feature, period) : isMetered(limit) ? 0 : undefined;
    const allowed = allows(limit, requested, used ?? 0);
    return {
      allowed,
      feature,
      plan: planId,
      limit: limitOf(limit),
      requested,
      ...(used === undefined ? {} : { used }),
      upgradeTo: allowed ? null : upgradeFor(plans, planId, feature, requested, used ?? 0),
    };
  };

  return {
    plans,
    check,
    requireFeature(feature, requested) {
      knownFeature(feature);
      if (typeof requested === 'number' && (!Number.isSafeInteger(requested) || requested < 0)) {
        throw new BillingError('FW_ERR_BILLING_INVALID_USAGE', `requireFeature(${JSON.stringify(feature)}, n): n must be a whole number >= 0 or a function of the request, got ${String(requested)}.`);
      }
      return requireFeatureMiddleware({ check }, feature, requested);
    },
    async track(tx, input) {
      const event = { ...input, tenant: input.tenant ?? currentTenant()?.id };
      checkUsage(event, meters);
      return insertUsage(tx, event, clock());
    },
    async usage(tenant, meter, period) {
      return usageIn(db(), tenant, meter, period ?? (await cache.planOf(tenant)).period);
    },
    planOf: (tenant) => cache.planOf(tenant),
    async applySubscriptionChange(tx, change) {
      const result = await applySubscriptionChange(tx, change, { plans });
      cache.invalidate(change.tenantId);
      return result;
    },
    closePeriod: (tenant, period, closeOptions) => closePeriod(db(), plans, tenant, period, closeOptions?.now ?? clock()),
    invoice: (tenant, periodStart) => readInvoice(db(), tenant, periodStart),
    reconcile: (tenant, periodStart, provider) => reconcileInvoice(db(), provider, tenant, periodStart),
    // All plans bill in one currency: the credit is in it.
    grantCredit: (tx, tenant, amount, reason, grantOptions) => grantCredit(tx, tenant, amount, reason, { ...grantOptions, currency: Object.values(plans.plans)[0]?.currency ?? 'usd' }),
    invalidate: (tenant) => cache.invalidate(tenant),
  };
}
