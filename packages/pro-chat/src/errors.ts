import { FrameworkError } from '@framework/core/names';
import { HttpError } from '@framework/runtime';

/**
 * Errors of @framework-pro/chat. Two families, like the other packages':
 * - HTTP answers (`CHAT_HTTP_ERROR_CODES`): what a caller did that chat refuses, each with its status; the same codes
 *   travel in WebSocket error frames (`{ type: 'error', code, message }`).
 * - `FW_ERR_CHAT_*` (`CHAT_ERROR_CODES`): the app's own mistakes (bad options), thrown at creation.
 *
 * README.md's error tables list every code; `test/errors.test.ts` keeps them in step.
 */
export const CHAT_HTTP_ERROR_CODES = {
  CHAT_INVALID_INPUT: { status: 400, meaning: 'A field of the request is missing or malformed (room id, client message id, text, emoji, role, cursor); the message names the field and what it must be.' },
  CHAT_UNAUTHENTICATED: { status: 401, meaning: 'A chat WebSocket frame came on a connection opened without a token: chat needs a signed-in caller.' },
  CHAT_NOT_A_MEMBER: { status: 403, meaning: 'The caller is not a member of the room: non-members can neither read nor send.' },
  CHAT_ROLE_REQUIRED: { status: 403, meaning: "The caller's role in the room does not allow the operation (e.g. a member deleting someone else's message); the message names the role needed." },
  CHAT_ROOM_NOT_FOUND: { status: 404, meaning: "No room of that id in the caller's tenant (another tenant's rooms do not exist for the caller)." },
  CHAT_MESSAGE_NOT_FOUND: { status: 404, meaning: 'No message of that id in the room (or it was deleted, for an edit or a reaction).' },
  CHAT_ROOM_FULL: { status: 409, meaning: 'Adding the member would pass the room size limit (`limits.maxRoomMembers`).' },
  CHAT_MESSAGE_TOO_LARGE: { status: 413, meaning: 'The text is longer than `limits.maxMessageBytes` (UTF-8 bytes), or more attachments than `limits.maxAttachments`.' },
  CHAT_MESSAGE_REJECTED: { status: 422, meaning: "The app's pre-send hook refused the message (moderation); the message carries the hook's reason." },
  CHAT_RATE_LIMITED: { status: 429, meaning: 'The member sent more than `limits.messagesPerMinute` messages in the last minute (or typed too often); sent with `Retry-After`.' },
  CHAT_PRE_SEND_TIMEOUT: { status: 503, meaning: "The pre-send hook did not answer within its time budget (`preSendBudgetMs`): the message is not sent (moderation fails closed); retry with the same client message id." },
} as const;

export type ChatHttpErrorCode = keyof typeof CHAT_HTTP_ERROR_CODES;

export const CHAT_ERROR_CODES = {
  FW_ERR_CHAT_INVALID_OPTIONS: 'The options given to `createChat` cannot work (a limit that is not a whole number > 0, a pre-send budget out of range, a resource name that is not `<kind>:<id>`), to `chatMigrationSql` (a step it does not have), or to `sendUnreadDigests` (bad options, or called outside a tenant).',
} as const;

export type ChatErrorCode = keyof typeof CHAT_ERROR_CODES;

/** A refusal of chat (4xx, or 503 for a pre-send hook out of time), with the shared error body. */
export class ChatHttpError extends HttpError {
  constructor(code: ChatHttpErrorCode, message: string, details?: unknown, headers?: Readonly<Record<string, string>>) {
    super(CHAT_HTTP_ERROR_CODES[code].status, code, message, details, headers ? { headers } : undefined);
  }
}

/** A mistake in the app's chat options, found when `createChat` runs. */
export class ChatConfigError extends FrameworkError {
  constructor(code: ChatErrorCode, message: string) {
    super(code, message);
  }
}
