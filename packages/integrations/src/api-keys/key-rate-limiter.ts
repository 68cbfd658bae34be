import type { ApiKeyRateLimit } from './api-key-record.js';

interface Window {
  startedAt: number;
  count: number;
}

/**
 * A fixed window per key, in this container's memory: at most `requests` per `windowSeconds`. Deployed with several
 * containers each keeps its own count (the limit is per container); put a shared limiter (pro-tenancy's, or the
 * gateway's throttling) in front when the limit must be global.
 */
export class KeyRateLimiter {
  private readonly windows = new Map<string, Window>();

  constructor(private readonly now: () => number = Date.now) {}

  /** Counts a request; the seconds to wait when it is over the limit, else undefined. */
  take(keyId: string, limit: ApiKeyRateLimit): number | undefined {
    const now = this.now();
    const windowMs = limit.windowSeconds * 1000;
    let window = this.windows.get(keyId);
    if (!window || now - window.startedAt >= windowMs) {
      window = { startedAt: now, count: 0 };
      this.windows.set(keyId, window);
    }
    if (window.count >= limit.requests) return Math.max(1, Math.ceil((window.startedAt + windowMs - now) / 1000));
    window.count++;
    return undefined;
  }
}
