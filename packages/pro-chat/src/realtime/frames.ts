import type { ChatEvent } from '../events/chat-event.js';
import type { ChatMessage } from '../model/types.js';
import type { PresenceStatus } from '../presence/presence.js';

/** The operations a client sends (`{ "action": "chat", "op": ..., "ref"?: ... }`); see README, "Protocol". */
export const CHAT_OPS = ['join', 'leave', 'send', 'edit', 'delete', 'react', 'typing', 'heartbeat', 'read', 'history', 'presence'] as const;
export type ChatOp = (typeof CHAT_OPS)[number];

/** What the server pushes to a room's connections. Every message frame carries the message's `seq`. */
export type ChatPushFrame =
  | (ChatEvent & { readonly type: 'message.sent' | 'message.edited' | 'message.deleted' | 'reaction.changed'; readonly message: ChatMessage })
  | { readonly type: 'read'; readonly roomId: string; readonly userId: string; readonly lastReadSeq: number }
  | { readonly type: 'member.added' | 'member.removed'; readonly roomId: string; readonly userId: string }
  | { readonly type: 'typing'; readonly roomId: string; readonly userId: string; readonly expiresInMs: number }
  | { readonly type: 'presence'; readonly roomId: string; readonly userId: string; readonly status: PresenceStatus | 'offline' };

/** The answer to one operation of the connection: `ack` with its result, or `error` with a code. */
export type ChatReplyFrame =
  | ({ readonly type: 'ack'; readonly op: ChatOp; readonly ref?: string } & Record<string, unknown>)
  | { readonly type: 'error'; readonly op?: string; readonly ref?: string; readonly code: string; readonly message: string };

/** The frame a change becomes for the room's connections; none for a retried send (its frame went out the first time). */
export function pushFrameOf(event: ChatEvent): ChatPushFrame | undefined {
  switch (event.type) {
    case 'message.sent':
      return event.retry ? undefined : { type: event.type, roomId: event.roomId, message: event.message };
    case 'member.added':
      return { type: event.type, roomId: event.roomId, userId: event.member.userId };
    default:
      return event as ChatPushFrame;
  }
}
