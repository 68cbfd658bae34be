import { sql } from '@framework/data';
import type { ChatMember, ChatMessage, ChatReaction, ChatRole, ChatRoom, RoomKind } from './types.js';

export interface RoomRow {
  id: string;
  kind: RoomKind;
  name: string | null;
  resource: string | null;
  created_by: string;
  created_at: Date;
  last_seq: number;
  last_rev: number;
}

export interface MemberRow {
  user_id: string;
  role: ChatRole;
  last_read_seq: number;
  joined_at: Date;
}

export interface MessageRow {
  id: string;
  room_id: string;
  seq: number;
  sender: string;
  client_msg_id: string;
  body: string;
  attachments: string[];
  parent_id: string | null;
  created_at: Date;
  edited_at: Date | null;
  deleted_at: Date | null;
  reactions: ChatReaction[] | null;
  rev: number;
}

export const toRoom = (row: RoomRow): ChatRoom => ({
  id: row.id,
  kind: row.kind,
  name: row.name,
  resource: row.resource,
  createdBy: row.created_by,
  createdAt: row.created_at.toISOString(),
  lastSeq: row.last_seq,
  lastRev: row.last_rev,
});

export const toMember = (row: MemberRow): ChatMember => ({ userId: row.user_id, role: row.role, lastReadSeq: row.last_read_seq, joinedAt: row.joined_at.toISOString() });

export const toMessage = (row: MessageRow): ChatMessage => ({
  id: String(row.id),
  roomId: row.room_id,
  seq: row.seq,
  sender: row.sender,
  clientMessageId: row.client_msg_id,
  text: row.deleted_at ? '' : row.body,
  attachments: row.deleted_at ? [] : row.attachments,
  parentId: row.parent_id === null ? null : String(row.parent_id),
  createdAt: row.created_at.toISOString(),
  editedAt: row.edited_at ? row.edited_at.toISOString() : null,
  deleted: row.deleted_at !== null,
  reactions: row.reactions ?? [],
  rev: row.rev,
});

/** The columns of a message with its reactions (`m` is fw_chat_messages), grouped by emoji in the order they came. */
export const MESSAGE_COLUMNS = sql`m.id::text AS id, m.room_id, m.seq, m.sender, m.client_msg_id, m.body, m.attachments, m.parent_id::text AS parent_id,
  m.created_at, m.edited_at, m.deleted_at, m.rev,
  (SELECT jsonb_agg(jsonb_build_object('emoji', r.emoji, 'users', r.users) ORDER BY r.first_at)
     FROM (SELECT emoji, jsonb_agg(user_id ORDER BY created_at, user_id) AS users, min(created_at) AS first_at
             FROM fw_chat_reactions WHERE message_id = m.id GROUP BY emoji) r) AS reactions`;
