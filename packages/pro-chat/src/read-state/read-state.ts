import { sql } from '@framework/data';
import { emit, requireRole, type SessionScope } from '../session/session-scope.js';

export interface ReadState {
  readonly roomId: string;
  /** The caller's watermark after the call. */
  readonly lastReadSeq: number;
  /** Messages after the watermark that are not the caller's and not deleted: exact, however large the room. */
  readonly unread: number;
}

const unreadCount = (scope: SessionScope, roomId: string, after: number) =>
  scope.db.one<{ n: number }>(sql`SELECT count(*)::int AS n FROM fw_chat_messages
    WHERE room_id = ${roomId} AND seq > ${after} AND deleted_at IS NULL AND sender <> ${scope.userId}`);

/**
 * Moves the caller's watermark to `seq` (capped at the room's last message). It only moves forward: a late or
 * repeated receipt never marks read messages unread again. Members are told (`read` event: read receipts).
 */
export async function markRead(scope: SessionScope, roomId: string, seq: number): Promise<ReadState> {
  await requireRole(scope, roomId, 'read');
  const row = await scope.db.one<{ last_read_seq: number; moved: boolean }>(sql`
    WITH before AS (SELECT last_read_seq FROM fw_chat_members WHERE room_id = ${roomId} AND user_id = ${scope.userId})
    UPDATE fw_chat_members m SET last_read_seq = GREATEST(m.last_read_seq, LEAST(${seq}, (SELECT last_seq FROM fw_chat_rooms WHERE id = ${roomId})))
    FROM before WHERE m.room_id = ${roomId} AND m.user_id = ${scope.userId}
    RETURNING m.last_read_seq, m.last_read_seq > before.last_read_seq AS moved`);
  const { n } = await unreadCount(scope, roomId, row.last_read_seq);
  if (row.moved) await emit(scope, { type: 'read', roomId, userId: scope.userId, lastReadSeq: row.last_read_seq });
  return { roomId, lastReadSeq: row.last_read_seq, unread: n };
}

/** The caller's read state in a room. */
export async function readState(scope: SessionScope, roomId: string): Promise<ReadState> {
  await requireRole(scope, roomId, 'read');
  const { last_read_seq } = await scope.db.one<{ last_read_seq: number }>(sql`SELECT last_read_seq FROM fw_chat_members WHERE room_id = ${roomId} AND user_id = ${scope.userId}`);
  const { n } = await unreadCount(scope, roomId, last_read_seq);
  return { roomId, lastReadSeq: last_read_seq, unread: n };
}
