import { currentTenant, getRootLogger, type HandlerContext, type Middleware, type TenantInfo } from '@framework/runtime';
import { RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { TenancyConfigError, TenancyHttpError } from '../errors.js';
import { defineTiers, hardLimitOf, isDeclaredHardQuota, type HardQuotaName, type TierQuotas, type Tiers } from './define-tiers.js';
import { memoryRateStore, type RateStore } from './rate-store.js';
import type { TierSource } from './tier-source.js';
import { memoryUsageStore, type UsageStore } from './usage-store.js';

export interface QuotasOptions<T extends Tiers> {
  /** The tiers (`defineTiers`). */
  readonly tiers: T;
  /**
   * A tenant's tier when its source gives none, or one that is not declared.
   * @default - the first declared tier
   */
  readonly defaultTier?: keyof T & string;
  /**
   * Where a tenant's tier comes from (`tierFromTenantsTable(db)`, `tierFromClaim()`, or a function of your own).
   * @default - every tenant is on the default tier
   */
  readonly tierOf?: TierSource;
  /**
   * Where request counters live: `redisRateStore(client)` deployed (the cache intent), `postgresRateStore(pool)`.
   * @default - memoryRateStore(): per process, for tests
   */
  readonly rates?: RateStore;
  /**
   * Where hard-quota usage lives: `postgresUsageStore(pool)`.
   * @default - memoryUsageStore(): per process, for tests
   */
  readonly usage?: UsageStore;
}

/** A tenant's use of one quota against its tier's limit. */
export interface QuotaUsage {
  readonly used: number;
  /** `undefined`: unlimited on this tier. */
  readonly limit: number | undefined;
}

/** What `createQuotas` returns: the middleware for rates, and the calls for hard limits. */
export interface Quotas {
  /**
   * Counts each request against the tenant's `requestsPerMinute` (after the tenancy middleware: it reads
   * `ctx.tenant`): over it, 429 `QUOTA_RATE_EXCEEDED` with `Retry-After`. Requests without a tenant are not counted.
   */
  middleware(): Middleware<HandlerContext>;
  /**
   * Takes `amount` of a hard quota (`seats`, `storageBytes`, a counter) for the tenant, atomically: over the tier's
   * limit it throws 402 `QUOTA_EXCEEDED` (a higher tier allows more) or 403 `QUOTA_LIMIT_REACHED` (none does) and
   * counts nothing. Resolves to the usage after it.
   */
  consume(quota: HardQuotaName, amount?: number, tenant?: TenantInfo, ctx?: Pick<HandlerContext, 'auth'>): Promise<QuotaUsage>;
  /** Gives `amount` back (a seat freed, a file deleted). */
  release(quota: HardQuotaName, amount?: number, tenant?: TenantInfo): Promise<number>;
  /** Every hard quota of the tenant's tier with its usage. */
  usage(tenant?: TenantInfo, ctx?: Pick<HandlerContext, 'auth'>): Promise<{ tier: string; quotas: Record<string, QuotaUsage> }>;
  /** The tier that applies to the tenant (declared, or the default). */
  tierOf(tenant: TenantInfo, ctx?: Pick<HandlerContext, 'auth'>): Promise<string>;
  /** Forgets the tenant's usage counters (offboarding). */
  forget(tenantId: string): Promise<void>;
}

const MINUTE = 60;

function tenantOrThrow(tenant: TenantInfo | undefined): TenantInfo {
  const found = tenant ?? currentTenant();
  if (!found) throw new TenancyHttpError('TENANT_REQUIRED', 'A quota is counted per tenant and this code runs outside any; add the tenancy middleware to the route, or pass the tenant');
  return found;
}

/**
 * Tiers enforced: a middleware for request rates (counters in `rates`), and atomic consume/release for hard limits
 * (usage in `usage`). A counter store that fails lets the request through and logs a warning: an outage of the
 * cache never takes the app down with it.
 */
export function createQuotas<T extends Tiers>(options: QuotasOptions<T>): Quotas {
  const tiers = defineTiers(options.tiers);
  const names = Object.keys(tiers);
  const defaultTier = options.defaultTier ?? names[0]!;
  if (!Object.hasOwn(tiers, defaultTier)) throw new TenancyConfigError('FW_ERR_TENANCY_INVALID_TIERS', `defaultTier "${defaultTier}" is not a declared tier (declared: ${names.join(', ')})`);
  const rates = options.rates ?? memoryRateStore();
  const usageStore = options.usage ?? memoryUsageStore();
  const limiters = new Map<string, Promise<RateLimiterAbstract>>();

  async function tierOf(tenant: TenantInfo, ctx?: Pick<HandlerContext, 'auth'>): Promise<string> {
    const name = options.tierOf ? await options.tierOf(tenant, ctx) : undefined;
    if (name === undefined) return defaultTier;
    if (!Object.hasOwn(tiers, name)) {
      getRootLogger().warn('tenant tier is not declared; the default tier applies', { tenant: tenant.id, tier: name, defaultTier });
      return defaultTier;
    }
    return name;
  }

  function limiterOf(tier: string, points: number): Promise<RateLimiterAbstract> {
    let limiter = limiters.get(tier);
    if (!limiter) {
      limiter = rates.limiter({ keyPrefix: `fw-rpm-${tier}`, points, duration: MINUTE });
      // A store that could not start is retried on the next request rather than failing every later one.
      limiter.catch(() => limiters.delete(tier));
      limiters.set(tier, limiter);
    }
    return limiter;
  }

  const quotas: Quotas = {
    middleware() {
      return {
        name: 'tenant-quotas',
        async before({ ctx }) {
          const tenant = ctx.tenant ?? currentTenant();
          if (!tenant) return;
          let tier: string;
          try {
            tier = await tierOf(tenant, ctx);
          } catch (error) {
            // The tier's source (the tenants table) is down: rates fail open like their counters do.
            ctx.logger.warn('tenant tier lookup failed; the request is not rate limited', { tenant: tenant.id, error: (error as Error)?.message });
            return;
          }
          const perMinute = (tiers[tier] as TierQuotas).requestsPerMinute;
          if (perMinute === undefined) return;
          try {
            await (await limiterOf(tier, perMinute)).consume(tenant.id);
          } catch (outcome) {
            if (!(outcome instanceof RateLimiterRes)) {
              ctx.logger.warn('quota counter store failed; the request is let through', { tenant: tenant.id, error: (outcome as Error)?.message });
              return;
            }
            const retryAfter = Math.max(1, Math.ceil(outcome.msBeforeNext / 1000));
            throw new TenancyHttpError(
              'QUOTA_RATE_EXCEEDED',
              `Tenant "${tenant.id}" made more than ${perMinute} requests in a minute (tier "${tier}", quota requestsPerMinute); retry after ${retryAfter} s, or move the tenant to a tier with a higher requestsPerMinute`,
              { quota: 'requestsPerMinute', tier, limit: perMinute, retryAfterSeconds: retryAfter },
              { 'retry-after': String(retryAfter) },
            );
          }
        },
      };
    },

    async consume(quota, amount = 1, tenant, ctx) {
      if (!isDeclaredHardQuota(tiers, quota)) throw new TenancyConfigError('FW_ERR_TENANCY_INVALID_TIERS', `no tier declares the quota "${quota}"; use storageBytes, seats, or a counter declared in a tier's counters`);
      if (!Number.isSafeInteger(amount) || amount < 0) throw new TenancyConfigError('FW_ERR_TENANCY_INVALID_TIERS', `consume("${quota}") amount must be a whole number >= 0, got ${String(amount)}`);
      const who = tenantOrThrow(tenant);
      const tier = await tierOf(who, ctx);
      const limit = hardLimitOf(tiers[tier] as TierQuotas, quota);
      const result = await usageStore.consume(who.id, quota, amount, limit);
      if (result.ok) return { used: result.used, limit };
      const higher = names.filter((name) => {
        const other = hardLimitOf(tiers[name] as TierQuotas, quota);
        return other === undefined || other > (limit ?? Infinity);
      });
      const details = { quota, tier, limit, used: result.used, requested: amount, ...(higher.length ? { tiersAllowingMore: higher } : {}) };
      if (higher.length) {
        throw new TenancyHttpError('QUOTA_EXCEEDED', `Tenant "${who.id}" would pass its ${quota} limit of ${limit} (tier "${tier}", ${result.used} used, ${amount} asked); upgrade to ${higher.map((n) => `"${n}"`).join(' or ')}, or free some`, details);
      }
      throw new TenancyHttpError('QUOTA_LIMIT_REACHED', `Tenant "${who.id}" would pass its ${quota} limit of ${limit} (tier "${tier}", ${result.used} used, ${amount} asked), the highest any tier allows; free some first`, details);
    },

    async release(quota, amount = 1, tenant) {
      return usageStore.release(tenantOrThrow(tenant).id, quota, amount);
    },

    async usage(tenant, ctx) {
      const who = tenantOrThrow(tenant);
      const tier = await tierOf(who, ctx);
      const used = await usageStore.usage(who.id);
      const quotasOfTier = tiers[tier] as TierQuotas;
      const out: Record<string, QuotaUsage> = {};
      for (const quota of ['storageBytes', 'seats', ...Object.keys(quotasOfTier.counters ?? {})]) out[quota] = { used: used[quota] ?? 0, limit: hardLimitOf(quotasOfTier, quota) };
      return { tier, quotas: out };
    },

    tierOf,

    async forget(tenantId) {
      await usageStore.forget(tenantId);
    },
  };
  return quotas;
}
