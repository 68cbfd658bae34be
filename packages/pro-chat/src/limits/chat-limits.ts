import { ChatConfigError } from '../errors.js';

/** What chat refuses, each with a coded error (see README, "Limits"). */
export interface ChatLimits {
  /**
   * Longest message text, in UTF-8 bytes.
   * @default 4000
   */
  readonly maxMessageBytes?: number;
  /**
   * Most attachments (storage keys) on one message.
   * @default 10
   */
  readonly maxAttachments?: number;
  /**
   * Messages one member may send per minute (all rooms of the tenant together).
   * @default 60
   */
  readonly messagesPerMinute?: number;
  /**
   * Most members of one room.
   * @default 1000
   */
  readonly maxRoomMembers?: number;
}

export type ResolvedChatLimits = { readonly [K in keyof ChatLimits]-?: number };

export const DEFAULT_CHAT_LIMITS: ResolvedChatLimits = { maxMessageBytes: 4000, maxAttachments: 10, messagesPerMinute: 60, maxRoomMembers: 1000 };

export function resolveChatLimits(limits: ChatLimits = {}): ResolvedChatLimits {
  const resolved = { ...DEFAULT_CHAT_LIMITS, ...limits };
  for (const [name, value] of Object.entries(resolved)) {
    if (!Number.isInteger(value) || value <= 0) throw new ChatConfigError('FW_ERR_CHAT_INVALID_OPTIONS', `limits.${name} must be a whole number > 0, got ${String(value)}`);
  }
  return resolved;
}
