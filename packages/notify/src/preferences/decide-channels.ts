import type { Channel } from '../providers/provider.js';
import type { Preference } from './preference-store.js';

/** Categories that reach the user whatever their preferences say (password reset, security alerts, receipts). */
export const DEFAULT_CRITICAL_CATEGORIES: readonly string[] = Object.freeze(['critical']);

export interface ChannelDecision {
  /** The channels to send on, in the order the message named them. */
  readonly send: readonly Channel[];
  /** The channels left out, each with why (for the delivery log). */
  readonly skipped: readonly { readonly channel: Channel; readonly reason: 'opted-out' | 'channel-not-chosen' }[];
}

/**
 * Which of the requested channels a message of `category` goes out on, given the user's effective preference. A
 * critical category ignores preferences entirely: a user who opted out of everything still gets a password reset.
 * A channel choice narrows the requested channels; it never adds one the message did not name (the template may
 * have no part for it).
 */
export function decideChannels(input: {
  readonly category: string;
  readonly requested: readonly Channel[];
  readonly preference: Preference | undefined;
  /** @default DEFAULT_CRITICAL_CATEGORIES */
  readonly criticalCategories?: readonly string[];
}): ChannelDecision {
  const critical = (input.criticalCategories ?? DEFAULT_CRITICAL_CATEGORIES).includes(input.category);
  const { preference } = input;
  if (critical || !preference) return { send: [...input.requested], skipped: [] };
  if (preference.optedOut) return { send: [], skipped: input.requested.map((channel) => ({ channel, reason: 'opted-out' as const })) };
  if (!preference.channels) return { send: [...input.requested], skipped: [] };
  const chosen = new Set(preference.channels);
  return {
    send: input.requested.filter((c) => chosen.has(c)),
    skipped: input.requested.filter((c) => !chosen.has(c)).map((channel) => ({ channel, reason: 'channel-not-chosen' as const })),
  };
}
