import { chatRoutes, createChat } from '@framework-pro/chat';
import { tenancy } from './tenancy.js';

/**
 * Chat (@framework-pro/chat): a discussion room per task (POST /tasks/{id}/chat), real time over the app's WebSocket
 * API (src/ws/chat.ts), history, rooms and members over HTTP (src/routes/chat/). The tables come from
 * migrations/0030_chat.sql (the text of `chatMigrationSql()`).
 */
export const chat = createChat({
  limits: { maxMessageBytes: 4000, messagesPerMinute: 120, maxRoomMembers: 500 },
  // A chat screen heartbeats every 5 s while it is open; shown online 10 s after the last one. Typing shows for 2 s
  // after the last keystroke event, passed on at most every 500 ms.
  presence: { ttlMs: 10_000, typingTtlMs: 2_000, typingIntervalMs: 500 },
});

/** The HTTP API under /chat: every route needs `tasks:read`, and resolves the tenant first. */
export const chatHttp = chatRoutes(chat, { scopes: ['tasks:read'], middleware: [tenancy] });
