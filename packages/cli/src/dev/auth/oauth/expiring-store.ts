import { randomBytes } from 'node:crypto';

/** Entries kept at most; past it the oldest goes first (a script hammering `/oauth2/authorize` cannot grow memory). */
const MAX_ENTRIES = 10_000;

/**
 * Values under random, unguessable keys (256 bits, base64url) that expire: the dev issuer's authorization codes, login
 * transactions and refresh tokens. In memory: a restart of `fw dev` signs everyone out, as a redeploy never does; the
 * front end then logs in again.
 */
export class ExpiringStore<T> {
  private readonly entries = new Map<string, { readonly value: T; readonly expiresAt: number }>();

  constructor(private readonly ttlSeconds: number) {}

  /** Stores `value` under a new key and returns the key. */
  add(value: T): string {
    const key = randomBytes(32).toString('base64url');
    if (this.entries.size >= MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(key, { value, expiresAt: Date.now() + this.ttlSeconds * 1000 });
    return key;
  }

  /** The value under `key` while it has not expired. */
  get(key: string): T | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.expiresAt <= Date.now()) {
      this.entries.delete(key);
      return undefined;
    }
    return entry.value;
  }

  /** The value under `key`, removed: a second `take` of the same key finds nothing (single use). */
  take(key: string): T | undefined {
    const value = this.get(key);
    this.entries.delete(key);
    return value;
  }
}
