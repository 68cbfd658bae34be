/**
 * @framework-pro/chat: rooms, messages, read state and presence in the app's PostgreSQL (tenant tables), real time
 * over the app's WebSocket API. See README.md for what each part guarantees.
 */
import { requireLicense } from '@framework-pro/license';

// Once per cold start (the check keeps its result): never throws, warns locally, logs loudly when deployed.
requireLicense('chat');

export * from './errors.js';
export * from './chat.js';
export { chatMigrationSql, CHAT_MIGRATION_STEPS, CHAT_TABLES } from './model/migration.js';
export * from './model/types.js';
export type { ChatEvent, ChatEventType } from './events/chat-event.js';
export type { PreSendDraft, PreSendHook, PreSendVerdict } from './hooks/pre-send.js';
export { MAX_PRE_SEND_BUDGET_MS } from './hooks/pre-send.js';
export { DEFAULT_CHAT_LIMITS, type ChatLimits, type ResolvedChatLimits } from './limits/chat-limits.js';
export { ROLE_PERMISSIONS, type RoomPermission } from './permissions/room-permissions.js';
export type { CreateRoomInput } from './rooms/rooms.js';
export type { HistoryOptions, HistoryPage, SendInput, SendResult } from './messages/messages.js';
export type { ReadState } from './read-state/read-state.js';
export { resolvePresenceOptions, type PresenceOptions, type PresenceStatus, type ResolvedPresenceOptions, type RoomPresence } from './presence/presence.js';
export { chatSocket, type ChatSocketOptions } from './realtime/chat-socket.js';
export { CHAT_OPS, type ChatOp, type ChatPushFrame, type ChatReplyFrame } from './realtime/frames.js';
export { roomTopic } from './realtime/room-topic.js';
export { roomFanOut, type RoomFanOut } from './realtime/room-fan-out.js';
export { chatRoutes, type AddMemberBody, type ChatRoutes, type ChatRoutesOptions, type CreateRoomBody, type MarkReadBody, type SendMessageBody } from './http/chat-routes.js';
export { sendUnreadDigests, type UnreadDigestOptions, type UnreadDigestResult } from './digest/unread-digest.js';
export { unreadDigestNotification, UNREAD_DIGEST_TEMPLATE, type UnreadDigestData } from './digest/unread-digest-notification.js';
