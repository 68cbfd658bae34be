import type { StoredApiKey } from './api-key-record.js';

/** Hits, misses and refreshes since the cache was created: the benchmark's hit ratio and its database reads. */
export interface CacheStats {
  readonly hits: number;
  readonly misses: number;
  /** Reads started in the background for an entry past 3/4 of its TTL, while the entry still answered. */
  readonly refreshes: number;
}

/**
 * The share of the TTL after which a hit starts a background re-read: late enough that a key in steady use costs about
 * one read per 0.75 TTL (not twice per TTL), early enough that a key used at least once in the last quarter never
 * misses.
 */
export const REFRESH_AFTER_TTL_SHARE = 0.75;

interface Entry {
  readonly record: StoredApiKey | undefined;
  /** When the read that produced it started: the entry answers until `readAt + ttl`, never longer. */
  readonly readAt: number;
}

/** A cache hit: the record (`undefined`: a known unknown) and whether it is due for a background refresh. */
export interface CacheHit {
  readonly record: StoredApiKey | undefined;
  readonly refreshDue: boolean;
}

/**
 * The stored record by prefix for `ttlMs`, so a verified request costs one HMAC and one map lookup. Unknown prefixes
 * are cached too (as `undefined`), so a client hammering with a made-up key does not reach the database each time.
 * An entry past 3/4 of its TTL is still answered but reported `refreshDue`, so a key in steady use is re-read in the
 * background and never misses; an entry is never answered past its TTL, counted from the start of the read that
 * produced it, so revocation and expiry take effect within the TTL in other containers (at once in the one that
 * revoked: `forget`). At most `maxEntries` (the oldest entry goes first).
 */
export class VerificationCache {
  private readonly entries = new Map<string, Entry>();
  private hits = 0;
  private misses = 0;
  private refreshes = 0;
  /** Bumped by `forget`: a read started before it must not put back what it read. */
  private epoch = 0;

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** A hit, or undefined on a miss. */
  get(prefix: string): CacheHit | undefined {
    const entry = this.entries.get(prefix);
    const now = this.now();
    if (entry && now < entry.readAt + this.ttlMs) {
      this.hits++;
      return { record: entry.record, refreshDue: now >= entry.readAt + this.ttlMs * REFRESH_AFTER_TTL_SHARE };
    }
    if (entry) this.entries.delete(prefix);
    this.misses++;
    return undefined;
  }

  /** What a read must hand back to `set`: the time it started and the revocation epoch it started in. */
  startRead(): { readonly readAt: number; readonly epoch: number } {
    return { readAt: this.now(), epoch: this.epoch };
  }

  /** Stores what a read found, unless a `forget` happened since it started (it may have read the old row). */
  set(prefix: string, record: StoredApiKey | undefined, read: { readonly readAt: number; readonly epoch: number }): void {
    if (read.epoch !== this.epoch) return;
    this.entries.delete(prefix);
    if (this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(prefix, { record, readAt: read.readAt });
  }

  /** Counts a background refresh (the read itself is the caller's). */
  noteRefresh(): void {
    this.refreshes++;
  }

  forget(prefix: string): void {
    this.epoch++;
    this.entries.delete(prefix);
  }

  stats(): CacheStats {
    return { hits: this.hits, misses: this.misses, refreshes: this.refreshes };
  }
}
