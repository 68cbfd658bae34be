import { isTransientError } from './transient.js';

/** Time, abstracted so tests can run retries without waiting (fake timers). */
export interface Clock {
  sleep(ms: number): Promise<void>;
  /** A number in [0, 1). */
  random(): number;
}

export const systemClock: Clock = {
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
  random: Math.random,
};

export interface RetryPolicy {
  /** Retries after the first attempt (0: no retry). */
  readonly retries: number;
  /**
   * First backoff ceiling; each retry doubles it.
   * @default 100
   */
  readonly baseDelayMs?: number;
  /**
   * Highest backoff ceiling.
   * @default 5000
   */
  readonly maxDelayMs?: number;
  /**
   * Do not start a retry when less than this is left of the invocation (after the wait): a retry that Lambda cuts
   * off helps nobody, and the queue or scheduler retries anyway.
   * @default 1000
   */
  readonly minRemainingMs?: number;
  /**
   * Which errors to retry.
   * @default isTransientError
   */
  readonly isTransient?: (error: unknown) => boolean;
  /**
   * Time source (tests inject a fake one).
   * @default - real timers and Math.random
   */
  readonly clock?: Clock;
}

/** Full-jitter exponential backoff (AWS Architecture Blog): a uniform wait in [0, min(max, base·2^retry)). */
export function backoffDelay(retry: number, policy: RetryPolicy, random: () => number): number {
  const ceiling = Math.min(policy.maxDelayMs ?? 5000, (policy.baseDelayMs ?? 100) * 2 ** retry);
  return Math.floor(random() * ceiling);
}

/**
 * Runs `attempt` and retries it on transient errors, at most `policy.retries` times. Non-transient errors and the last
 * failure are rethrown as they are.
 */
export async function withRetries<T>(
  attempt: (attemptNumber: number) => Promise<T>,
  policy: RetryPolicy,
  remainingMs: () => number = () => Number.POSITIVE_INFINITY,
  onRetry?: (error: unknown, retry: number, delayMs: number) => void,
): Promise<T> {
  const clock = policy.clock ?? systemClock;
  const isTransient = policy.isTransient ?? isTransientError;
  for (let n = 0; ; n++) {
    try {
      return await attempt(n);
    } catch (error) {
      if (n >= policy.retries || !isTransient(error)) throw error;
      const delay = backoffDelay(n, policy, clock.random);
      if (remainingMs() - delay < (policy.minRemainingMs ?? 1000)) throw error;
      onRetry?.(error, n + 1, delay);
      await clock.sleep(delay);
    }
  }
}
