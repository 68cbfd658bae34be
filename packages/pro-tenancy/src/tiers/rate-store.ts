import { RateLimiterMemory, RateLimiterPostgres, RateLimiterRedis, type RateLimiterAbstract } from 'rate-limiter-flexible';

/** What a rate limiter is made with: one per tier (its `points` per `duration` seconds), keyed by tenant id. */
export interface RateLimiterSpec {
  readonly keyPrefix: string;
  readonly points: number;
  readonly duration: number;
}

/**
 * Where request counters live (`rate-limiter-flexible` does the counting, atomically in the store): Redis/Valkey
 * deployed (the cache intent), PostgreSQL, or memory (one process: tests).
 */
export interface RateStore {
  /** Creates the limiter of one tier; resolves once it can count (a PostgreSQL table exists). */
  limiter(spec: RateLimiterSpec): Promise<RateLimiterAbstract>;
}

/** Counters in this process's memory: tests, scripts. Each process (each Lambda container) counts alone. */
export function memoryRateStore(): RateStore {
  return { limiter: async (spec) => new RateLimiterMemory(spec) };
}

/** The part of a `pg` Pool the PostgreSQL store uses. */
export interface PgPoolLike {
  query(...args: never[]): unknown;
}

/**
 * Counters in PostgreSQL (`rate-limiter-flexible`'s store: one upsert per request), in the table `tableName`, created
 * when missing. Pass a `pg` Pool connected as the migrations' user (the counters are the framework's, not a
 * tenant's rows).
 */
export function postgresRateStore(pool: PgPoolLike, options: { readonly tableName?: string } = {}): RateStore {
  return {
    limiter: (spec) =>
      new Promise((resolve, reject) => {
        const limiter: RateLimiterPostgres = new RateLimiterPostgres({ ...spec, storeClient: pool, storeType: 'pool', tableName: options.tableName ?? 'fw_quota_rates', clearExpiredByTimeout: false }, (error?: unknown) =>
          error ? reject(error instanceof Error ? error : new Error(String(error))) : resolve(limiter),
        );
      }),
  };
}

/**
 * Counters in Redis/Valkey (the cache intent, deployed): pass the app's client (`ioredis`, or `redis` with
 * `useRedisPackage: true`). One atomic script per request, shared by every container.
 */
export function redisRateStore(client: unknown, options: { readonly useRedisPackage?: boolean } = {}): RateStore {
  return { limiter: async (spec) => new RateLimiterRedis({ ...spec, storeClient: client, ...(options.useRedisPackage ? { useRedisPackage: true } : {}) }) };
}
