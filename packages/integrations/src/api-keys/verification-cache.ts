import type { StoredApiKey } from './api-key-record.js';

/** Hits and misses since the cache was created: the benchmark's hit ratio. */
export interface CacheStats {
  readonly hits: number;
  readonly misses: number;
}

interface Entry {
  readonly record: StoredApiKey | undefined;
  readonly expiresAt: number;
}

/**
 * The stored record by prefix for `ttlMs`, so a verified request costs one HMAC and one map lookup. Unknown prefixes
 * are cached too (as `undefined`), so a client hammering with a made-up key does not reach the database each time.
 * Revocation and expiry take effect within the TTL in other containers (at once in the one that revoked). At most
 * `maxEntries` (the oldest entry goes first).
 */
export class VerificationCache {
  private readonly entries = new Map<string, Entry>();
  private hits = 0;
  private misses = 0;

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** `{ record }` on a hit (the record may be `undefined`: a known unknown), undefined on a miss. */
  get(prefix: string): { readonly record: StoredApiKey | undefined } | undefined {
    const entry = this.entries.get(prefix);
    if (entry && entry.expiresAt > this.now()) {
      this.hits++;
      return entry;
    }
    if (entry) this.entries.delete(prefix);
    this.misses++;
    return undefined;
  }

  set(prefix: string, record: StoredApiKey | undefined): void {
    this.entries.delete(prefix);
    if (this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(prefix, { record, expiresAt: this.now() + this.ttlMs });
  }

  forget(prefix: string): void {
    this.entries.delete(prefix);
  }

  stats(): CacheStats {
    return { hits: this.hits, misses: this.misses };
  }
}
