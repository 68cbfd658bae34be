import { randomUUID } from 'node:crypto';
import type { IdempotencyStore } from './idempotency-store.js';

/**
 * The idempotency state machine, written once and shared by the HTTP middleware and `makeIdempotent` (tasks):
 *
 * | record at start                          | outcome       | HTTP answer                       |
 * |------------------------------------------|---------------|-----------------------------------|
 * | none, expired, or pending with lease over | `run` (record saved as pending, this invocation owns it) | handler runs |
 * | any live record, different fingerprint   | `reused`      | 422 IDEMPOTENCY_KEY_REUSED        |
 * | pending, lease not over                  | `in-progress` | 409 + Retry-After                 |
 * | completed, not expired                   | `replay`      | stored response + Idempotency-Replayed: true |
 *
 * After `run`: success → `complete` (stored result, TTL restarts); failure → `release` (record deleted).
 */
export type ExecutionStart =
  | { readonly kind: 'run'; readonly owner: string }
  | { readonly kind: 'replay'; readonly data: string }
  | { readonly kind: 'in-progress'; readonly retryAfterSeconds: number }
  | { readonly kind: 'reused' };

export interface ExecutionRequest {
  /** Namespaced key. */
  readonly key: string;
  readonly fingerprint?: string;
  readonly nowMs: number;
  /** When this invocation's lease ends (epoch ms): now + the invocation's remaining time. */
  readonly leaseExpiresAt: number;
  readonly ttlSeconds: number;
}

export async function startExecution(store: IdempotencyStore, request: ExecutionRequest): Promise<ExecutionStart> {
  const owner = randomUUID();
  const result = await store.acquire(
    {
      key: request.key,
      status: 'pending',
      owner,
      leaseExpiresAt: request.leaseExpiresAt,
      expiresAt: Math.floor(request.nowMs / 1000) + request.ttlSeconds,
      ...(request.fingerprint !== undefined ? { fingerprint: request.fingerprint } : {}),
    },
    request.nowMs,
  );
  if (result.acquired) return { kind: 'run', owner };
  const existing = result.existing;
  if (existing.fingerprint !== undefined && request.fingerprint !== undefined && existing.fingerprint !== request.fingerprint) {
    return { kind: 'reused' };
  }
  if (existing.status === 'completed') return { kind: 'replay', data: existing.data ?? 'null' };
  const leaseLeft = (existing.leaseExpiresAt ?? request.nowMs) - request.nowMs;
  return { kind: 'in-progress', retryAfterSeconds: Math.max(1, Math.ceil(leaseLeft / 1000)) };
}

/** Stores the result; its TTL starts now. */
export async function completeExecution(
  store: IdempotencyStore,
  key: string,
  owner: string,
  data: string,
  nowMs: number,
  ttlSeconds: number,
): Promise<void> {
  await store.complete(key, owner, data, Math.floor(nowMs / 1000) + ttlSeconds);
}

/** The work failed: drop the pending record so a later attempt may run. */
export async function abandonExecution(store: IdempotencyStore, key: string, owner: string): Promise<void> {
  await store.release(key, owner);
}

/** The longest key accepted (Stripe's limit; a UUID is 36). */
export const DEFAULT_MAX_KEY_LENGTH = 255;
/** How long a record is kept: 24 hours, longer than any client's retries of one operation. */
export const DEFAULT_TTL_SECONDS = 86_400;
/** Lease when no Lambda context tells the remaining time: Lambda's maximum timeout, so a live run never loses it. */
export const DEFAULT_LEASE_SECONDS = 900;

/**
 * When this invocation's lease ends. A Lambda context's remaining time is the truth (0 means the lease is already
 * over, not "no lease"); without one, `fallbackSeconds`.
 */
export function leaseEnd(nowMs: number, remainingMs: number | undefined, fallbackSeconds: number): number {
  if (remainingMs !== undefined && Number.isFinite(remainingMs)) return nowMs + Math.max(0, remainingMs);
  return nowMs + fallbackSeconds * 1000;
}

/** The remaining time of a Lambda context, or undefined when there is none. */
export function remainingTimeOf(context: unknown): number | undefined {
  if (context !== null && typeof context === 'object' && 'getRemainingTimeInMillis' in context) {
    const fn = (context as { getRemainingTimeInMillis: unknown }).getRemainingTimeInMillis;
    if (typeof fn === 'function') {
      const value: unknown = fn.call(context);
      if (typeof value === 'number') return value;
    }
  }
  return undefined;
}
