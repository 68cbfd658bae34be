import { sql, type Queryable } from '@framework/data';
import { ChatHttpError } from '../errors.js';
import { runPreSend } from '../hooks/pre-send.js';
import { ROLE_PERMISSIONS, roleAllows } from '../permissions/room-permissions.js';
import { MESSAGE_COLUMNS, toMessage, type MessageRow } from '../model/rows.js';
import type { RoomRow } from '../model/rows.js';
import type { ChatMessage, ChatRole } from '../model/types.js';
import { checkRole, emit, requireRole, type SessionScope } from '../session/session-scope.js';

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
  /** Messages after this sequence number, oldest first (new messages only). */
  readonly after?: number;
  /**
   * Messages changed after this room revision (`ChatMessage.rev`), in revision order, each once in its current state:
   * new ones, and edits, deletes and reactions of older ones (resume after a reconnect).
   */
  readonly since?: number;
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

/** Whether `checkSize` would pass (the one-statement send is only tried for a message that fits). */
function sizeAllows(scope: SessionScope, text: string, attachments: readonly string[]): boolean {
  return Buffer.byteLength(text, 'utf8') <= scope.limits.maxMessageBytes && attachments.length <= scope.limits.maxAttachments && (text.trim() !== '' || attachments.length > 0);
}

function checkSize(scope: SessionScope, text: string, attachments: readonly string[]): void {
  const bytes = Buffer.byteLength(text, 'utf8');
  if (bytes > scope.limits.maxMessageBytes) throw new ChatHttpError('CHAT_MESSAGE_TOO_LARGE', `A message's text is at most ${scope.limits.maxMessageBytes} bytes (UTF-8); this one is ${bytes}. Split it, or attach it as a file.`);
  if (attachments.length > scope.limits.maxAttachments) throw new ChatHttpError('CHAT_MESSAGE_TOO_LARGE', `A message has at most ${scope.limits.maxAttachments} attachments; this one has ${attachments.length}.`);
  if (text.trim() === '' && attachments.length === 0) throw new ChatHttpError('CHAT_INVALID_INPUT', 'text must not be empty (unless the message has attachments)');
}

function checkRate(scope: SessionScope, recent: { n: number; wait: number }): void {
  if (recent.n >= scope.limits.messagesPerMinute) {
    const retryAfter = String(Math.max(1, recent.wait));
    throw new ChatHttpError('CHAT_RATE_LIMITED', `You sent ${recent.n} messages in the last minute; the limit is ${scope.limits.messagesPerMinute}. Retry in ${retryAfter} s.`, undefined, { 'retry-after': retryAfter });
  }
}

/** What a send reads before it writes, in one statement: the room and the caller's role, a first send of the same client id, the parent's room, the sender's rate. */
type SendCheckRow = RoomRow & { role: ChatRole | null; sent_id: string | null; parent_room: string | null; n: number; wait: number };

/** A unique violation (a racing retry's first send committed between the check and the insert). */
function isUniqueViolation(error: unknown): boolean {
  for (let e = error as { code?: unknown; cause?: unknown } | undefined, depth = 0; e && depth < 5; e = e.cause as typeof e, depth++) {
    if (e.code === '23505') return true;
  }
  return false;
}

/** The roles that may send (members, moderators, owners today: read from the permission map, not assumed). */
const SENDING_ROLES = (Object.keys(ROLE_PERMISSIONS) as ChatRole[]).filter((role) => roleAllows(role, 'send'));

/**
 * The write of a send, one statement (so one transaction): the room's next sequence number and revision taken under
 * the room's row lock (messages commit in sequence order, no gaps), the message inserted, the sender's watermark
 * moved to it (one's own message is read). Membership is checked in the room update; with `guarded`, so are the
 * role, the rate, the parent and a first send of the same client id (the one-statement path: no row back means one
 * of them failed, and the caller finds which). A racing retry's unique violation undoes the sequence number with it.
 */
function writeMessage(scope: SessionScope, roomId: string, input: SendInput, text: string, attachments: readonly string[], guarded: boolean) {
  // Membership: guarded, with a sending role (one index probe, not two); else any role (the role was read before).
  const guard = guarded
    ? sql`EXISTS (SELECT 1 FROM fw_chat_members g WHERE g.room_id = ${roomId} AND g.user_id = ${scope.userId} AND g.role = ANY(${SENDING_ROLES}::text[]))
        AND (SELECT count(*) FROM fw_chat_messages WHERE sender = ${scope.userId} AND created_at > now() - interval '1 minute') < ${scope.limits.messagesPerMinute}
        AND NOT EXISTS (SELECT 1 FROM fw_chat_messages x WHERE x.room_id = ${roomId} AND x.sender = ${scope.userId} AND x.client_msg_id = ${input.clientMessageId})
        ${input.parentId !== undefined ? sql`AND EXISTS (SELECT 1 FROM fw_chat_messages p WHERE p.id = ${input.parentId}::bigint AND p.room_id = ${roomId})` : sql.empty}`
    : sql`EXISTS (SELECT 1 FROM fw_chat_members WHERE room_id = ${roomId} AND user_id = ${scope.userId})`;
  return scope.db.maybeOne<MessageRow>(sql`
    WITH room AS (
      UPDATE fw_chat_rooms SET last_seq = last_seq + 1, last_rev = last_rev + 1
      WHERE id = ${roomId} AND ${guard}
      RETURNING last_seq, last_rev),
    m AS (
      INSERT INTO fw_chat_messages (room_id, seq, rev, sender, client_msg_id, body, attachments, parent_id)
      SELECT ${roomId}::uuid, last_seq, last_rev, ${scope.userId}, ${input.clientMessageId}, ${text}, ${JSON.stringify(attachments)}::jsonb, ${input.parentId ?? null}::bigint FROM room
      RETURNING *),
    mark AS (
      UPDATE fw_chat_members SET last_read_seq = GREATEST(last_read_seq, (SELECT seq FROM m))
      WHERE room_id = ${roomId} AND user_id = ${scope.userId})
    SELECT m.id::text AS id, m.room_id, m.seq, m.sender, m.client_msg_id, m.body, m.attachments, m.parent_id::text AS parent_id,
      m.created_at, m.edited_at, m.deleted_at, m.rev, NULL::jsonb AS reactions
    FROM m`,
    // Prepared: its text is fixed (four variants), and parsing, rewriting (every table's row-level security policy)
    // and planning it cost about twice as much as running it (PGlite; see README, "Benchmark").
    { prepare: true });
}

/**
 * Sends a message. Without a pre-send hook, in one statement when it goes through (`writeMessage` guarded: every
 * check in the statement); when that writes nothing, or with a hook, the checks are read in one statement (membership
 * and role, a first send of the same client id, the parent, the rate), each refusal answered with its code, the hook
 * run, and the message written in a second.
 */
export async function sendMessage(scope: SessionScope, roomId: string, input: SendInput): Promise<SendResult> {
  const attachments = input.attachments ?? [];
  const findSent = async () => toMessage((await scope.db.maybeOne<MessageRow>(sql`SELECT ${MESSAGE_COLUMNS} FROM fw_chat_messages m WHERE m.room_id = ${roomId} AND m.sender = ${scope.userId} AND m.client_msg_id = ${input.clientMessageId}`))!);
  const retried = async (): Promise<SendResult> => {
    const message = await findSent();
    await emit(scope, { type: 'message.sent', roomId, message, retry: true });
    return { message, duplicate: true };
  };
  const sent = async (row: MessageRow): Promise<SendResult> => {
    const message = toMessage(row);
    await emit(scope, { type: 'message.sent', roomId, message });
    return { message, duplicate: false };
  };
  const write = async (text: string, guarded: boolean): Promise<MessageRow | 'duplicate' | undefined> => {
    try {
      return await writeMessage(scope, roomId, input, text, attachments, guarded);
    } catch (error) {
      // The same client message id committed meanwhile (a retry racing the first send): nothing of this one stayed.
      if (isUniqueViolation(error)) return 'duplicate';
      throw error;
    }
  };
  if (!scope.preSend && sizeAllows(scope, input.text, attachments)) {
    const row = await write(input.text, true);
    if (row === 'duplicate') return retried();
    if (row) return sent(row);
  }
  const check = await scope.db.maybeOne<SendCheckRow>(sql`
    SELECT r.id, r.kind, r.name, r.resource, r.created_by, r.created_at, r.last_seq, r.last_rev, mb.role,
      (SELECT x.id::text FROM fw_chat_messages x WHERE x.room_id = r.id AND x.sender = ${scope.userId} AND x.client_msg_id = ${input.clientMessageId}) AS sent_id,
      ${input.parentId !== undefined ? sql`(SELECT p.room_id FROM fw_chat_messages p WHERE p.id = ${input.parentId}::bigint)` : sql`NULL::uuid`} AS parent_room,
      rate.n, rate.wait
    FROM fw_chat_rooms r
    LEFT JOIN fw_chat_members mb ON mb.room_id = r.id AND mb.user_id = ${scope.userId}
    CROSS JOIN LATERAL (SELECT count(*)::int AS n, COALESCE(ceil(60 - extract(epoch FROM now() - min(created_at))), 0)::int AS wait
      FROM fw_chat_messages WHERE sender = ${scope.userId} AND created_at > now() - interval '1 minute') rate
    WHERE r.id = ${roomId}`);
  checkRole(check, roomId, 'send');
  if (check!.sent_id !== null) return retried();
  checkSize(scope, input.text, attachments);
  if (input.parentId !== undefined && check!.parent_room !== roomId) throw new ChatHttpError('CHAT_MESSAGE_NOT_FOUND', `parentId ${input.parentId} is not a message of room ${roomId}.`);
  checkRate(scope, check!);
  const text = await runPreSend(scope.preSend, scope.preSendBudgetMs, { roomId, sender: scope.userId, text: input.text, attachments, parentId: input.parentId ?? null });
  checkSize(scope, text, attachments);
  const row = await write(text, false);
  if (row === 'duplicate') return retried();
  if (!row) throw new ChatHttpError('CHAT_NOT_A_MEMBER', `You are no longer a member of room ${roomId}.`);
  return sent(row);
}

/**
 * A change to one message with the room's next revision, in one statement. `change` gets `rev` (the new revision)
 * and updates the message's own columns and `rev` (an edit, a delete); or, with `reaction`, `change` writes
 * `fw_chat_reactions` and the message takes the revision only when a reaction row changed (adding one twice moves
 * nothing). A revision a change did not use is skipped, never reused: resume reads `rev > cursor`.
 */
async function revise(scope: SessionScope, roomId: string, messageId: string, change: (rev: ReturnType<typeof sql>) => ReturnType<typeof sql>, reaction = false): Promise<ChatMessage> {
  await scope.db.query(
    reaction
      ? sql`WITH changed AS (${change(sql`0`)}),
        room AS (UPDATE fw_chat_rooms SET last_rev = last_rev + 1 WHERE id = ${roomId} AND EXISTS (SELECT 1 FROM changed) RETURNING last_rev)
        UPDATE fw_chat_messages SET rev = room.last_rev FROM room WHERE id = ${messageId}`
      : sql`WITH room AS (UPDATE fw_chat_rooms SET last_rev = last_rev + 1 WHERE id = ${roomId} RETURNING last_rev)
        ${change(sql`(SELECT last_rev FROM room)`)}`,
  );
  return toMessage((await messageById(scope.db, messageId))!);
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
  const message = await revise(scope, row.room_id, messageId, (rev) => sql`UPDATE fw_chat_messages SET body = ${text}, edited_at = now(), rev = ${rev} WHERE id = ${messageId} AND deleted_at IS NULL`);
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
  const message = await revise(scope, row.room_id, messageId, (rev) => sql`UPDATE fw_chat_messages SET deleted_at = now(), body = '', attachments = '[]'::jsonb, rev = ${rev} WHERE id = ${messageId} AND deleted_at IS NULL`);
  await emit(scope, { type: 'message.deleted', roomId: row.room_id, message });
  return message;
}

/** Adds (or with `add: false` removes) the caller's reaction; doing it twice is not an error. */
export async function reactToMessage(scope: SessionScope, messageId: string, emoji: string, add = true): Promise<ChatMessage> {
  const { row, role } = await messageInRoom(scope, messageId);
  if (!roleAllows(role, 'send')) throw new ChatHttpError('CHAT_ROLE_REQUIRED', 'Reacting needs the role member (or stronger).');
  const message = await revise(
    scope,
    row.room_id,
    messageId,
    () =>
      add
        ? sql`INSERT INTO fw_chat_reactions (message_id, user_id, emoji) VALUES (${messageId}, ${scope.userId}, ${emoji}) ON CONFLICT DO NOTHING RETURNING 1`
        : sql`DELETE FROM fw_chat_reactions WHERE message_id = ${messageId} AND user_id = ${scope.userId} AND emoji = ${emoji} RETURNING 1`,
    true,
  );
  await emit(scope, { type: 'reaction.changed', roomId: row.room_id, message });
  return message;
}

/** A page of the room's messages in sequence order: after a cursor (resume), before one (paging back), or the latest. */
export async function history(scope: SessionScope, roomId: string, options: HistoryOptions = {}): Promise<HistoryPage> {
  await requireRole(scope, roomId, 'read');
  const limit = options.limit ?? 50;
  if (options.since !== undefined) {
    const changed = await scope.db.many<MessageRow>(sql`SELECT ${MESSAGE_COLUMNS} FROM fw_chat_messages m WHERE m.room_id = ${roomId} AND m.rev > ${options.since} ORDER BY m.rev LIMIT ${limit + 1}`);
    return { messages: changed.slice(0, limit).map(toMessage), hasMore: changed.length > limit };
  }
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
