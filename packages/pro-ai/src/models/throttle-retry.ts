import type { APICallError } from '@ai-sdk/provider';
import { AiError } from '../errors.js';

/** How calls to a model are retried when the provider throttles (429, Bedrock's `ThrottlingException`). */
export interface RetryOptions {
  /**
   * Attempts in all, the first included (1 = no retry).
   * @default 4
   */
  readonly attempts?: number;
  /**
   * Delay before the first retry; doubled for each further one (with jitter), unless the provider sent `Retry-After`.
   * @default 250
   */
  readonly baseDelayMs?: number;
  /**
   * The longest single wait.
   * @default 8000
   */
  readonly maxDelayMs?: number;
  /**
   * How the wait happens (tests pass one that records the delays instead of waiting).
   * @default - a timer
   */
  readonly sleep?: (ms: number) => Promise<void>;
  /**
   * The jitter source, a number in [0, 1).
   * @default Math.random
   */
  readonly random?: () => number;
}

const THROTTLING_NAMES = new Set(['ThrottlingException', 'TooManyRequestsException', 'RateLimitError', 'ServiceQuotaExceededException']);

/**
 * Whether `error` says "too many requests, slow down": a 429 from any provider (the ai SDK's `APICallError`, an AWS
 * SDK error's `$metadata`), or a throttling exception by name (Bedrock's `ThrottlingException`), also as a cause.
 */
export function isThrottlingError(error: unknown, depth = 0): boolean {
  if (typeof error !== 'object' || error === null || depth > 4) return false;
  const e = error as { name?: unknown; statusCode?: unknown; $metadata?: { httpStatusCode?: unknown }; responseBody?: unknown; cause?: unknown };
  if (isApiCallError(error) && (error.statusCode === 429 || (typeof error.responseBody === 'string' && error.responseBody.includes('ThrottlingException')))) return true;
  if (e.statusCode === 429 || e.$metadata?.httpStatusCode === 429) return true;
  if (typeof e.name === 'string' && THROTTLING_NAMES.has(e.name)) return true;
  return isThrottlingError(e.cause, depth + 1);
}

/**
 * Whether `error` is the ai SDK's `APICallError` (a provider's HTTP answer), by its documented name: checked without
 * `APICallError.isInstance`, which would load the SDK's provider package at import (see `loadAiSdk`).
 */
function isApiCallError(error: unknown): error is APICallError {
  return error instanceof Error && error.name === 'AI_APICallError';
}

/** The provider's `Retry-After` (seconds) in milliseconds, when it sent one. */
export function retryAfterMs(error: unknown): number | undefined {
  if (!isApiCallError(error)) return undefined;
  const header = error.responseHeaders?.['retry-after'];
  const seconds = header === undefined ? NaN : Number(header);
  return Number.isFinite(seconds) && seconds >= 0 ? seconds * 1000 : undefined;
}

/** Retry settings with every default applied, checked once. */
export interface ResolvedRetry {
  readonly attempts: number;
  readonly baseDelayMs: number;
  readonly maxDelayMs: number;
  readonly sleep: (ms: number) => Promise<void>;
  readonly random: () => number;
}

export function resolveRetry(options: RetryOptions = {}): ResolvedRetry {
  const attempts = options.attempts ?? 4;
  if (!Number.isInteger(attempts) || attempts < 1) throw new AiError('FW_ERR_AI_INVALID_OPTIONS', `retry.attempts must be a whole number >= 1 (got ${String(attempts)}): 1 means no retry.`);
  return {
    attempts,
    baseDelayMs: options.baseDelayMs ?? 250,
    maxDelayMs: options.maxDelayMs ?? 8000,
    sleep: options.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms))),
    random: options.random ?? Math.random,
  };
}

/** The wait before retry number `retry` (1-based): exponential with "equal jitter", capped; `Retry-After` wins. */
export function backoffDelay(retry: number, error: unknown, settings: ResolvedRetry): number {
  const asked = retryAfterMs(error);
  if (asked !== undefined) return Math.min(asked, settings.maxDelayMs);
  const exponential = Math.min(settings.maxDelayMs, settings.baseDelayMs * 2 ** (retry - 1));
  return Math.round(exponential / 2 + (exponential / 2) * settings.random());
}

/** What `withThrottleRetry` reports when the provider still throttles after the last attempt. */
export class ThrottledAfterRetries extends Error {
  constructor(
    readonly attempts: number,
    readonly lastError: unknown,
    readonly retryAfterSeconds: number,
  ) {
    super(`the model provider throttled ${attempts} attempt(s)`, { cause: lastError });
    this.name = 'ThrottledAfterRetries';
  }
}

/**
 * Runs `call`, retrying it while it fails with a throttling error; any other error is thrown at once (a bad request
 * does not get better by repeating it). `onRetry` sees each retry (for the log line).
 */
export async function withThrottleRetry<T>(call: () => PromiseLike<T>, settings: ResolvedRetry, onRetry?: (retry: number, delayMs: number) => void): Promise<{ value: T; attempts: number }> {
  for (let attempt = 1; ; attempt++) {
    try {
      return { value: await call(), attempts: attempt };
    } catch (error) {
      if (!isThrottlingError(error)) throw error;
      if (attempt >= settings.attempts) throw new ThrottledAfterRetries(attempt, error, Math.max(1, Math.ceil((retryAfterMs(error) ?? settings.maxDelayMs) / 1000)));
      const delay = backoffDelay(attempt, error, settings);
      onRetry?.(attempt, delay);
      await settings.sleep(delay);
    }
  }
}
