/**
 * How long to wait before the next attempt: exponential backoff with full jitter (a uniform draw in
 * `[0, min(maxDelayMs, baseDelayMs * 2^(retry-1))]`, which spreads a crowd of clients best), never less than what
 * the upstream asked for in its headers.
 */
export function backoffDelayMs(retry: number, baseDelayMs: number, maxDelayMs: number, random: () => number): number {
  const ceiling = Math.min(maxDelayMs, baseDelayMs * 2 ** Math.max(0, retry - 1));
  return Math.floor(random() * ceiling);
}

/**
 * The wait an answer asks for, in milliseconds, or `undefined` when it names none. Read in order: `Retry-After`
 * (seconds or an HTTP date), the IETF `RateLimit` header (`limit=10, remaining=0, reset=5`) or its older split form
 * `RateLimit-Reset`, then `X-RateLimit-Reset` (seconds, or epoch seconds as GitHub sends it) when
 * `X-RateLimit-Remaining` is 0 or absent. `now` is the client's clock (epoch ms).
 */
export function serverRequestedDelayMs(headers: Headers, now: number): number | undefined {
  const retryAfter = headers.get('retry-after')?.trim();
  if (retryAfter) {
    if (/^\d+(\.\d+)?$/.test(retryAfter)) return Math.ceil(Number(retryAfter) * 1000);
    const date = Date.parse(retryAfter);
    if (!Number.isNaN(date)) return Math.max(0, date - now);
  }
  const rateLimit = headers.get('ratelimit');
  if (rateLimit) {
    const fields = parseRateLimitFields(rateLimit);
    if (fields.reset !== undefined && (fields.remaining === undefined || fields.remaining <= 0)) return fields.reset * 1000;
  }
  const splitReset = headers.get('ratelimit-reset');
  const splitRemaining = headers.get('ratelimit-remaining');
  if (splitReset && /^\d+$/.test(splitReset.trim()) && (splitRemaining === null || Number(splitRemaining) <= 0)) return Number(splitReset) * 1000;
  const xReset = headers.get('x-ratelimit-reset');
  const xRemaining = headers.get('x-ratelimit-remaining');
  if (xReset && /^\d+(\.\d+)?$/.test(xReset.trim()) && (xRemaining === null || Number(xRemaining) <= 0)) {
    const value = Number(xReset);
    // Epoch seconds (GitHub, Twitter) vs. seconds to wait (most others): no wait is a billion seconds long.
    return value > 1e9 ? Math.max(0, Math.ceil(value * 1000 - now)) : Math.ceil(value * 1000);
  }
  return undefined;
}

/**
 * `limit=100, remaining=0, reset=50` (draft-ietf-httpapi-ratelimit-headers up to -07) and the structured-field
 * form of later drafts (`"default";r=0;t=50`).
 */
function parseRateLimitFields(value: string): { remaining?: number; reset?: number } {
  const out: { remaining?: number; reset?: number } = {};
  for (const part of value.split(/[,;]/)) {
    const match = /^\s*([a-z]+)\s*=\s*(\d+)\s*$/i.exec(part);
    if (!match) continue;
    const key = match[1]!.toLowerCase();
    const number = Number(match[2]);
    if (key === 'remaining' || key === 'r') out.remaining = number;
    else if (key === 'reset' || key === 't') out.reset = number;
  }
  return out;
}
