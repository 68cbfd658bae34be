import { sql, type Queryable } from '@framework/data';
import { ChatHttpError } from '../errors.js';
import { runPreSend } from '../hooks/pre-send.js';
import { roleAllows } from '../permissions/room-permissions.js';
import { MESSAGE_COLUMNS, toMessage, type MessageRow } from '../model/rows.js';
import type { ChatMessage } from '../model/types.js';
import { emit, requireRole, type SessionScope } from '../session/session-scope.js';

export interface SendInput {
  /** Chosen by the client, the same on every retry: a retried send returns the message it wrote (`duplicate: true`). */
  readonly clientMessageId: string;
  readonly text: string;
  /** Storage keys of files the client uploaded first. @default [] */
  readonly attachments?: readonly string[];
  /** The message this one answers (a thread). @default - none */
  readonly parentId?: string;
}

export interface SendResult {
  readonly message: ChatMessage;
  /** True when this client message id had been sent already: nothing new was written. */
  readonly duplicate: boolean;
}

export interface HistoryOptions {
  /** Messages after this sequence number, oldest first (resume after a reconnect). */
  readonly after?: number;
  /** Messages before this sequence number (paging back). */
  readonly before?: number;
  /** @default 50 (at most 200) */
  readonly limit?: number;
}

export interface HistoryPage {
  readonly messages: readonly ChatMessage[];
  /** More messages lie beyond this page in the direction asked. */
  readonly hasMore: boolean;
}

export const MAX_HISTORY_PAGE = 200;

const messageById = (db: Queryable, id: string) => db.maybeOne<MessageRow>(sql`SELECT ${MESSAGE_COLUMNS} FROM fw_chat_messages m WHERE m.id = ${id}`);

function checkSize(scope: SessionScope, text: string, attachments: readonly string[]): void {
  const bytes = Buffer.byteLength(text, 'utf8');
  if (bytes > scope.limits.maxMessageBytes) throw new ChatHttpError('CHAT_MESSAGE_TOO_LARGE', `A message's text is at most ${scope.limits.maxMessageBytes} bytes (UTF-8); this one is ${bytes}. Split it, or attach it as a file.`);
  if (attachments.length > scope.limits.maxAttachments) throw new ChatHttpError('CHAT_MESSAGE_TOO_LARGE', `A message has at most ${scope.limits.maxAttachments} attachments; this one has ${attachments.length}.`);
  if (text.trim() === '' && attachments.length === 0) throw new ChatHttpError('CHAT_INVALID_INPUT', 'text must not be empty (unless the message has attachments)');
}

async function checkRate(scope: SessionScope): Promise<void> {
  const recent = await scope.db.one<{ n: number; wait: number }>(sql`
    SELECT count(*)::int AS n, COALESCE(ceil(60 - extract(epoch FROM now() - min(created_at))), 0)::int AS wait
    FROM fw_chat_messages WHERE sender = ${scope.userId} AND created_at > now() - interval '1 minute'`);
  if (recent.n >= scope.limits.messagesPerMinute) {
    const retryAfter = String(Math.max(1, recent.wait));
    throw new ChatHttpError('CHAT_RATE_LIMITED', `You sent ${recent.n} messages in the last minute; the limit is ${scope.limits.messagesPerMinute}. Retry in ${retryAfter} s.`, undefined, { 'retry-after': retryAfter });
  }
}

/** A retried send found the message it wrote the first time. */
class AlreadySent extends Error {}

/**
 * Sends a message: membership, size, rate, parent and the pre-send hook are checked before anything is written;
 * then the room's next sequence number is taken under the room's row lock (messages commit in sequence order, no
 * gaps) and the sender's watermark moves to it (one's own message is read).
 */
export async function sendMessage(scope: SessionScope, roomId: string, input: SendInput): Promise<SendResult> {
  await requireRole(scope, roomId, 'send');
  const findSent = () => scope.db.maybeOne<MessageRow>(sql`SELECT ${MESSAGE_COLUMNS} FROM fw_chat_messages m WHERE m.room_id = ${roomId} AND m.sender = ${scope.userId} AND m.client_msg_id = ${input.clientMessageId}`);
  const sent = await findSent();
  if (sent) {
    const message = toMessage(sent);
    await emit(scope, { type: 'message.sent', roomId, message, retry: true });
    return { message, duplicate: true };
  }
  const attachments = input.attachments ?? [];
  checkSize(scope, input.text, attachments);
  if (input.parentId !== undefined) {
    const parent = await messageById(scope.db, input.parentId);
    if (!parent || parent.room_id !== roomId) throw new ChatHttpError('CHAT_MESSAGE_NOT_FOUND', `parentId ${input.parentId} is not a message of room ${roomId}.`);
  }
  await checkRate(scope);
  const text = await runPreSend(scope.preSend, scope.preSendBudgetMs, { roomId, sender: scope.userId, text: input.text, attachments, parentId: input.parentId ?? null });
  checkSize(scope, text, attachments);
  let row: MessageRow;
  try {
    row = await scope.db.transaction(async (tx) => {
      const room = await tx.maybeOne<{ seq: number }>(sql`UPDATE fw_chat_rooms SET last_seq = last_seq + 1
        WHERE id = ${roomId} AND EXISTS (SELECT 1 FROM fw_chat_members WHERE room_id = ${roomId} AND user_id = ${scope.userId})
        RETURNING last_seq AS seq`);
      if (!room) throw new ChatHttpError('CHAT_NOT_A_MEMBER', `You are no longer a member of room ${roomId}.`);
      const inserted = await tx.maybeOne<{ id: string }>(sql`INSERT INTO fw_chat_messages (room_id, seq, sender, client_msg_id, body, attachments, parent_id)
        VALUES (${roomId}, ${room.seq}, ${scope.userId}, ${input.clientMessageId}, ${text}, ${JSON.stringify(attachments)}::jsonb, ${input.parentId ?? null})
        ON CONFLICT (room_id, sender, client_msg_id) DO NOTHING RETURNING id::text AS id`);
      // The same client message id committed meanwhile (a retry racing the first send): undo the sequence number.
      if (!inserted) throw new AlreadySent();
      await tx.query(sql`UPDATE fw_chat_members SET last_read_seq = GREATEST(last_read_seq, ${room.seq}) WHERE room_id = ${roomId} AND user_id = ${scope.userId}`);
      return (await messageById(tx, inserted.id))!;
    });
  } catch (error) {
    if (!(error instanceof AlreadySent)) throw error;
    const message = toMessage((await findSent())!);
    await emit(scope, { type: 'message.sent', roomId, message, retry: true });
    return { message, duplicate: true };
  }
  const message = toMessage(row);
  await emit(scope, { type: 'message.sent', roomId, message });
  return { message, duplicate: false };
}

/** The message and the caller's role in its room; deleted messages are not found (for edits and reactions). */
async function messageInRoom(scope: SessionScope, messageId: string, options: { allowDeleted?: boolean } = {}) {
  const row = await messageById(scope.db, messageId);
  if (!row || (row.deleted_at && !options.allowDeleted)) throw new ChatHttpError('CHAT_MESSAGE_NOT_FOUND', `There is no message ${messageId}.`);
  const { role } = await requireRole(scope, row.room_id, 'read');
  return { row, role };
}

/** Edits one's own message (the pre-send hook checks the new text too). */
export async function editMessage(scope: SessionScope, messageId: string, newText: string): Promise<ChatMessage> {
  const { row, role } = await messageInRoom(scope, messageId);
  if (row.sender !== scope.userId || !roleAllows(role, 'send')) throw new ChatHttpError('CHAT_ROLE_REQUIRED', 'Only the sender of a message can edit it.');
  checkSize(scope, newText, row.attachments);
  const text = await runPreSend(scope.preSend, scope.preSendBudgetMs, { roomId: row.room_id, sender: scope.userId, text: newText, attachments: row.attachments, parentId: row.parent_id });
  checkSize(scope, text, row.attachments);
  await scope.db.query(sql`UPDATE fw_chat_messages SET body = ${text}, edited_at = now() WHERE id = ${messageId} AND deleted_at IS NULL`);
  const message = toMessage((await messageById(scope.db, messageId))!);
  await emit(scope, { type: 'message.edited', roomId: row.room_id, message });
  return message;
}

/**
 * Deletes a message (the sender, or a moderator or owner): its text and attachments go, its place stays (its sequence
 * number), so history and resume have no gaps. Deleting it again is not an error.
 */
export async function deleteMessage(scope: SessionScope, messageId: string): Promise<ChatMessage> {
  const { row, role } = await messageInRoom(scope, messageId, { allowDeleted: true });
  const own = row.sender === scope.userId && roleAllows(role, 'send');
  if (!own && !roleAllows(role, 'moderate')) throw new ChatHttpError('CHAT_ROLE_REQUIRED', "Deleting someone else's message needs the role moderator (or owner) in the room.");
  await scope.db.query(sql`UPDATE fw_chat_messages SET deleted_at = COALESCE(deleted_at, now()), body = '', attachments = '[]'::jsonb WHERE id = ${messageId}`);
  const message = toMessage((await messageById(scope.db, messageId))!);
  await emit(scope, { type: 'message.deleted', roomId: row.room_id, message });
  return message;
}

/** Adds (or with `add: false` removes) the caller's reaction; doing it twice is not an error. */
export async function reactToMessage(scope: SessionScope, messageId: string, emoji: string, add = true): Promise<ChatMessage> {
  const { row, role } = await messageInRoom(scope, messageId);
  if (!roleAllows(role, 'send')) throw new ChatHttpError('CHAT_ROLE_REQUIRED', 'Reacting needs the role member (or stronger).');
  await scope.db.query(
    add
      ? sql`INSERT INTO fw_chat_reactions (message_id, user_id, emoji) VALUES (${messageId}, ${scope.userId}, ${emoji}) ON CONFLICT DO NOTHING`
      : sql`DELETE FROM fw_chat_reactions WHERE message_id = ${messageId} AND user_id = ${scope.userId} AND emoji = ${emoji}`,
  );
  const message = toMessage((await messageById(scope.db, messageId))!);
  await emit(scope, { type: 'reaction.changed', roomId: row.room_id, message });
  return message;
}

/** A page of the room's messages in sequence order: after a cursor (resume), before one (paging back), or the latest. */
export async function history(scope: SessionScope, roomId: string, options: HistoryOptions = {}): Promise<HistoryPage> {
  await requireRole(scope, roomId, 'read');
  const limit = options.limit ?? 50;
  const rows =
    options.after !== undefined
      ? await scope.db.many<MessageRow>(sql`SELECT ${MESSAGE_COLUMNS} FROM fw_chat_messages m WHERE m.room_id = ${roomId} AND m.seq > ${options.after} ORDER BY m.seq LIMIT ${limit + 1}`)
      : (
          await scope.db.many<MessageRow>(
            sql`SELECT ${MESSAGE_COLUMNS} FROM fw_chat_messages m WHERE m.room_id = ${roomId} ${options.before !== undefined ? sql`AND m.seq < ${options.before}` : sql.empty} ORDER BY m.seq DESC LIMIT ${limit + 1}`,
          )
        ).reverse();
  const hasMore = rows.length > limit;
  const page = hasMore ? (options.after !== undefined ? rows.slice(0, limit) : rows.slice(1)) : rows;
  return { messages: page.map(toMessage), hasMore };
}
