/**
 * The store contract (Powertools' design): the state machine lives once, in `idempotent-execution.ts`; a backend only
 * implements these four operations atomically and translates its SDK's errors into `IdempotencyStoreError` /
 * `IdempotencyNotOwnerError`.
 *
 * Times are absolute: `expiresAt` in epoch seconds (DynamoDB's TTL attribute), `leaseExpiresAt` in epoch
 * milliseconds. A record whose time has passed is treated as absent on every read and every acquire, whatever the
 * backend's own expiry does (DynamoDB deletes expired items up to two days late).
 */

export type IdempotencyStatus = 'pending' | 'completed';

export interface IdempotencyRecord {
  /** The namespaced key (`<scope>#<key>`). */
  readonly key: string;
  readonly status: IdempotencyStatus;
  /** Hash of the request (method, path, body) or of the task input; absent when not checked. */
  readonly fingerprint?: string;
  /** End of the record's life, epoch seconds. */
  readonly expiresAt: number;
  /** Pending only: when the owning invocation's lease ends, epoch milliseconds. */
  readonly leaseExpiresAt?: number;
  /** Pending only: the token of the invocation that owns the record. */
  readonly owner?: string;
  /** Completed only: the stored result, serialized. */
  readonly data?: string;
}

/** A new pending record. */
export interface PendingIdempotencyRecord extends IdempotencyRecord {
  readonly status: 'pending';
  readonly leaseExpiresAt: number;
  readonly owner: string;
}

export type AcquireResult =
  | { readonly acquired: true }
  /** A live record holds the key; `existing` is that record (read in the same request). */
  | { readonly acquired: false; readonly existing: IdempotencyRecord };

export interface IdempotencyStore {
  /**
   * Saves `record` unless a live record holds its key. Live at `nowMs`: not expired, and either completed or pending
   * with a lease that has not ended (a lease that ends exactly now has ended).
   */
  acquire(record: PendingIdempotencyRecord, nowMs: number): Promise<AcquireResult>;
  /** The live record of `key` at `nowMs`, or undefined. Reads are strongly consistent. */
  get(key: string, nowMs: number): Promise<IdempotencyRecord | undefined>;
  /**
   * Turns the pending record of `key` owned by `owner` into a completed one holding `data`, alive until `expiresAt`.
   * @throws IdempotencyNotOwnerError when another invocation owns the record (or it is gone)
   * @throws IdempotencyResponseTooLargeError when `data` does not fit in an item, even compressed
   */
  complete(key: string, owner: string, data: string, expiresAt: number): Promise<void>;
  /**
   * Deletes the pending record of `key` owned by `owner` (the handler failed, so a later request may run again).
   * A record that is already gone is fine.
   * @throws IdempotencyNotOwnerError when another invocation owns the record
   */
  release(key: string, owner: string): Promise<void>;
}

/** What the middleware and `makeIdempotent` accept: a store, or the promise `createDefaultIdempotencyStore()` returns. */
export type IdempotencyStoreInput = IdempotencyStore | Promise<IdempotencyStore>;

/** Whether `record` is live at `nowMs` (see `IdempotencyStore.acquire`). Shared by every backend. */
export function isLiveRecord(record: IdempotencyRecord, nowMs: number): boolean {
  if (record.expiresAt * 1000 <= nowMs) return false;
  if (record.status === 'pending') return (record.leaseExpiresAt ?? 0) > nowMs;
  return true;
}
