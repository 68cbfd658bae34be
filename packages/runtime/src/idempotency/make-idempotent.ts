import {
  IdempotencyConfigError,
  IdempotencyInProgressError,
  IdempotencyKeyMissingError,
  IdempotencyKeyReusedError,
  IdempotencyKeyTooLongError,
  IdempotencyResponseTooLargeError,
} from './errors.js';
import { valueFingerprint } from './fingerprint.js';
import type { IdempotencyStoreInput } from './idempotency-store.js';
import {
  abandonExecution,
  completeExecution,
  DEFAULT_LEASE_SECONDS,
  DEFAULT_MAX_KEY_LENGTH,
  DEFAULT_TTL_SECONDS,
  leaseEnd,
  remainingTimeOf,
  startExecution,
} from './idempotent-execution.js';
import { taskInvocation } from '../task/task-handler.js';

export interface MakeIdempotentOptions<TArgs extends readonly unknown[]> {
  readonly store: IdempotencyStoreInput;
  /**
   * Namespace of the keys (a queue id, a cron id, a function id): two consumers never share a record.
   */
  readonly scope: string;
  /** The key of one call, e.g. `(record) => record.messageId` or a business id from the body. */
  readonly key: (...args: NoInfer<TArgs>) => string | undefined;
  /**
   * What must be equal for a repeated key to count as the same operation; a different value throws
   * `IdempotencyKeyReusedError`. Leave unset for queue records (redeliveries differ in receipt handle and counts).
   * @default - not checked
   */
  readonly fingerprint?: (...args: NoInfer<TArgs>) => unknown;
  /**
   * Lifetime of a record, seconds.
   * @default 86400
   */
  readonly ttlSeconds?: number;
  /**
   * Lease of a pending record when the remaining time is unknown, seconds. It is known when an argument is a Lambda
   * context or a `ctx` (an object with `getRemainingTimeInMillis`) or when called inside `taskHandler`. Keep it at most the queue's visibility timeout so a crashed
   * attempt does not block the redelivery.
   * @default 900
   */
  readonly leaseSeconds?: number;
  /**
   * Longer keys throw `IdempotencyKeyTooLongError`.
   * @default 255
   */
  readonly maxKeyLength?: number;
  /**
   * The clock, epoch milliseconds.
   * @default Date.now
   */
  readonly clock?: () => number;
}

/**
 * Wraps a task (queue record, cron run, function invocation) so that it runs at most once per key: a repeated key
 * returns the stored result (JSON) without running again; a key still running elsewhere throws
 * `IdempotencyInProgressError` (a queue record that throws is redelivered later, by which time the result is stored).
 * A failure deletes the record, so a retry runs again.
 *
 * @example
 * const chargeOnce = makeIdempotent(charge, { store: createDefaultIdempotencyStore(), scope: 'payments', key: (r) => r.messageId });
 */
export function makeIdempotent<TArgs extends readonly unknown[], TResult>(
  fn: (...args: TArgs) => Promise<TResult> | TResult,
  options: MakeIdempotentOptions<TArgs>,
): (...args: TArgs) => Promise<TResult> {
  if (typeof fn !== 'function') throw new IdempotencyConfigError('makeIdempotent: the first argument must be the function to protect.');
  if (!options || options.store === undefined || options.store === null) throw new IdempotencyConfigError('makeIdempotent: `store` is required.');
  if (typeof options.key !== 'function') throw new IdempotencyConfigError('makeIdempotent: `key` must be a function returning the key of a call.');
  if (!options.scope || options.scope.trim() === '') throw new IdempotencyConfigError('makeIdempotent: `scope` is required (e.g. the queue id).');
  const ttlSeconds = options.ttlSeconds ?? DEFAULT_TTL_SECONDS;
  const leaseSeconds = options.leaseSeconds ?? DEFAULT_LEASE_SECONDS;
  const maxKeyLength = options.maxKeyLength ?? DEFAULT_MAX_KEY_LENGTH;
  for (const [name, value] of [['ttlSeconds', ttlSeconds], ['leaseSeconds', leaseSeconds], ['maxKeyLength', maxKeyLength]] as const) {
    if (!Number.isFinite(value) || value <= 0) throw new IdempotencyConfigError(`makeIdempotent: \`${name}\` must be a positive number, got ${value}.`);
  }
  const clock = options.clock ?? Date.now;
  const storePromise = Promise.resolve(options.store);
  storePromise.catch(() => undefined);

  return async (...args: TArgs): Promise<TResult> => {
    const key = options.key(...args);
    if (key === undefined || key === '') throw new IdempotencyKeyMissingError(options.scope);
    if (key.length > maxKeyLength) throw new IdempotencyKeyTooLongError(key.length, maxKeyLength);
    const store = await storePromise;
    const fullKey = `${options.scope}#${key}`;
    const nowMs = clock();
    const start = await startExecution(store, {
      key: fullKey,
      ...(options.fingerprint ? { fingerprint: valueFingerprint(options.fingerprint(...args)) } : {}),
      nowMs,
      leaseExpiresAt: leaseEnd(nowMs, remainingTimeIn(args), leaseSeconds),
      ttlSeconds,
    });
    switch (start.kind) {
      case 'replay':
        return (JSON.parse(start.data) as { value?: TResult }).value as TResult;
      case 'reused':
        throw new IdempotencyKeyReusedError(fullKey);
      case 'in-progress':
        throw new IdempotencyInProgressError(fullKey, start.retryAfterSeconds);
      case 'run':
        break;
    }
    let result: TResult;
    try {
      result = await fn(...args);
    } catch (error) {
      await abandonExecution(store, fullKey, start.owner).catch(() => undefined);
      throw error;
    }
    // A result that cannot be stored is an error the author must see (the next delivery would run again).
    const data = JSON.stringify({ value: result });
    try {
      await completeExecution(store, fullKey, start.owner, data, clock(), ttlSeconds);
    } catch (error) {
      if (error instanceof IdempotencyResponseTooLargeError) {
        await completeExecution(store, fullKey, start.owner, JSON.stringify({ omitted: true }), clock(), ttlSeconds);
      }
      throw error;
    }
    return result;
  };
}

function remainingTimeIn(args: readonly unknown[]): number | undefined {
  for (const arg of args) {
    const direct = remainingTimeOf(arg);
    if (direct !== undefined) return direct;
    if (arg !== null && typeof arg === 'object' && 'lambdaContext' in arg) {
      const nested = remainingTimeOf((arg as { lambdaContext: unknown }).lambdaContext);
      if (nested !== undefined) return nested;
    }
  }
  // Inside taskHandler (e.g. through processRecords, which passes no context): the invocation's remaining time.
  return taskInvocation.getStore()?.ctx.getRemainingTimeInMillis();
}
