import { TenancyConfigError } from '../errors.js';

/** The quotas of one tier. An absent quota is unlimited. */
export interface TierQuotas {
  /** Requests per tenant per minute (a rolling 60-second window); over it: 429 `QUOTA_RATE_EXCEEDED`. @default - unlimited */
  readonly requestsPerMinute?: number;
  /** Bytes of storage a tenant may hold (the app consumes and releases them as files come and go). @default - unlimited */
  readonly storageBytes?: number;
  /** Users (seats) a tenant may have. @default - unlimited */
  readonly seats?: number;
  /** The app's own counters (`projects: 5`), consumed and released by name. @default - none */
  readonly counters?: Readonly<Record<string, number>>;
}

/** Tiers by name (`free`, `pro`, ...). */
export type Tiers = Readonly<Record<string, TierQuotas>>;

/** The hard (non-rate) quotas: `storageBytes`, `seats`, or a custom counter's name. */
export type HardQuotaName = 'storageBytes' | 'seats' | (string & {});

const NAME = /^[A-Za-z][A-Za-z0-9_-]{0,63}$/;
const BUILT_IN_HARD = ['storageBytes', 'seats'] as const;

function invalid(message: string): never {
  throw new TenancyConfigError('FW_ERR_TENANCY_INVALID_TIERS', message);
}

function checkLimit(where: string, value: unknown): void {
  if (value === undefined) return;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) invalid(`${where} is ${JSON.stringify(value)}; a limit is a whole number >= 0 (leave it out for unlimited)`);
}

/**
 * Declares the tiers and their quotas, checked once: names, whole non-negative limits, custom counters that do not
 * shadow the built-in quotas. Returns them unchanged (typed), frozen.
 *
 * ```ts
 * export const tiers = defineTiers({
 *   free: { requestsPerMinute: 60, storageBytes: 100_000_000, seats: 3, counters: { projects: 5 } },
 *   pro: { requestsPerMinute: 1_000, storageBytes: 10_000_000_000, seats: 50, counters: { projects: 500 } },
 * });
 * ```
 */
export function defineTiers<T extends Tiers>(tiers: T): T {
  if (typeof tiers !== 'object' || tiers === null || Object.keys(tiers).length === 0) invalid('declare at least one tier, e.g. defineTiers({ free: { requestsPerMinute: 60 } })');
  for (const [name, quotas] of Object.entries(tiers)) {
    if (!NAME.test(name)) invalid(`tier name ${JSON.stringify(name)} must start with a letter and hold letters, digits, "-" or "_" (at most 64)`);
    if (typeof quotas !== 'object' || quotas === null) invalid(`tier "${name}" must be an object of quotas`);
    for (const key of Object.keys(quotas)) {
      if (!['requestsPerMinute', 'storageBytes', 'seats', 'counters'].includes(key)) invalid(`tier "${name}" has an unknown quota "${key}"; use requestsPerMinute, storageBytes, seats, or counters: { ${key}: n }`);
    }
    checkLimit(`tiers.${name}.requestsPerMinute`, quotas.requestsPerMinute);
    if (quotas.requestsPerMinute === 0) invalid(`tiers.${name}.requestsPerMinute is 0: a tier that may send no request; give it at least 1`);
    checkLimit(`tiers.${name}.storageBytes`, quotas.storageBytes);
    checkLimit(`tiers.${name}.seats`, quotas.seats);
    for (const [counter, limit] of Object.entries(quotas.counters ?? {})) {
      if (!NAME.test(counter)) invalid(`counter name ${JSON.stringify(counter)} of tier "${name}" must start with a letter and hold letters, digits, "-" or "_"`);
      if ((BUILT_IN_HARD as readonly string[]).includes(counter) || counter === 'requestsPerMinute') invalid(`tier "${name}" declares a counter "${counter}", which is a built-in quota; set it outside counters`);
      checkLimit(`tiers.${name}.counters.${counter}`, limit);
    }
  }
  return Object.freeze(tiers);
}

/** A tier's limit of a hard quota: a number, or `undefined` for unlimited. */
export function hardLimitOf(quotas: TierQuotas, quota: HardQuotaName): number | undefined {
  if (quota === 'storageBytes') return quotas.storageBytes;
  if (quota === 'seats') return quotas.seats;
  return quotas.counters?.[quota];
}

/** Whether any tier declares this hard quota (a name no tier knows is a typo). */
export function isDeclaredHardQuota(tiers: Tiers, quota: string): boolean {
  return (BUILT_IN_HARD as readonly string[]).includes(quota) || Object.values(tiers).some((q) => q.counters !== undefined && Object.hasOwn(q.counters, quota));
}
