import { ChatConfigError } from '../errors.js';

// The options live apart from presence.ts because the session scope carries them and presence.ts reads the scope.
export type PresenceStatus = 'online' | 'away';

/** How long presence and typing last without being renewed (see README, "Presence and typing"). */
export interface PresenceOptions {
  /**
   * A member is shown online (or away) this long after their last heartbeat; clients send one at least this often.
   * @default 60000
   */
  readonly ttlMs?: number;
  /**
   * A typing indicator lasts this long after the last `typing` (clients repeat it while the user types).
   * @default 5000
   */
  readonly typingTtlMs?: number;
  /**
   * A member's `typing` is passed on at most once per this interval per room; more often is dropped (rate limit).
   * @default 2000
   */
  readonly typingIntervalMs?: number;
}

export type ResolvedPresenceOptions = { readonly [K in keyof PresenceOptions]-?: number };

export function resolvePresenceOptions(options: PresenceOptions = {}): ResolvedPresenceOptions {
  const resolved = { ttlMs: 60_000, typingTtlMs: 5_000, typingIntervalMs: 2_000, ...options };
  for (const [name, value] of Object.entries(resolved)) {
    if (!Number.isInteger(value) || value <= 0 || value > 3_600_000) throw new ChatConfigError('FW_ERR_CHAT_INVALID_OPTIONS', `presence.${name} must be a whole number of milliseconds from 1 to 3600000, got ${String(value)}`);
  }
  if (resolved.typingIntervalMs > resolved.typingTtlMs) throw new ChatConfigError('FW_ERR_CHAT_INVALID_OPTIONS', `presence.typingIntervalMs (${resolved.typingIntervalMs}) must not exceed presence.typingTtlMs (${resolved.typingTtlMs}), or typing would blink off between two allowed updates`);
  return resolved;
}
