import { chatSocket } from '@framework-pro/chat';
import { chat } from '../lib/chat.js';

/**
 * `{ "action": "chat", "op": "join" | "send" | "typing" | "read" | ..., "ref"?, ... }`: the chat protocol
 * (@framework-pro/chat's README, "Protocol"). The tenant is the token's `custom:tenant_id`.
 */
export const main = chatSocket(chat, { scopes: ['tasks:read'] });
