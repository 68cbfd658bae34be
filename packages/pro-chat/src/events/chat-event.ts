import type { ChatMember, ChatMessage } from '../model/types.js';

/**
 * What changed in a room, after it committed: what the WebSocket layer broadcasts to the room's connections and
 * what `onEvent` receives (to put on a queue: search indexing, webhooks). Delivered at least once: a client's retry
 * of a send (same client message id) emits `message.sent` again, so consumers key on `message.id`.
 */
export type ChatEvent =
  /** `retry`: a client's retry of a send that had committed (the same message again: consumers see it twice). */
  | { readonly type: 'message.sent'; readonly roomId: string; readonly message: ChatMessage; readonly retry?: boolean }
  | { readonly type: 'message.edited'; readonly roomId: string; readonly message: ChatMessage }
  | { readonly type: 'message.deleted'; readonly roomId: string; readonly message: ChatMessage }
  | { readonly type: 'reaction.changed'; readonly roomId: string; readonly message: ChatMessage }
  | { readonly type: 'read'; readonly roomId: string; readonly userId: string; readonly lastReadSeq: number }
  | { readonly type: 'member.added'; readonly roomId: string; readonly member: ChatMember }
  | { readonly type: 'member.removed'; readonly roomId: string; readonly userId: string };

export type ChatEventType = ChatEvent['type'];
