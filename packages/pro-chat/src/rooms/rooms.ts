import { sql, type Queryable } from '@framework/data';
import { ChatHttpError } from '../errors.js';
import type { RoomPermission } from '../permissions/room-permissions.js';
import { toMember, toRoom, type MemberRow, type RoomRow } from '../model/rows.js';
import type { ChatMember, ChatRole, ChatRoom, ChatRoomSummary } from '../model/types.js';
import { emit, requireRole, type SessionScope } from '../session/session-scope.js';

const ROOM_COLUMNS = sql`id, kind, name, resource, created_by, created_at, last_seq, last_rev`;

export interface CreateRoomInput {
  /** @default - none */
  readonly name?: string;
  /** Members besides the creator (who becomes the owner), with their role (default `member`). */
  readonly members?: ReadonlyArray<string | { readonly userId: string; readonly role?: ChatRole }>;
}

function memberList(creator: string, members: CreateRoomInput['members'] = []): Map<string, ChatRole> {
  const list = new Map<string, ChatRole>([[creator, 'owner']]);
  for (const member of members) {
    const { userId, role = 'member' } = typeof member === 'string' ? { userId: member } : member;
    if (!list.has(userId)) list.set(userId, role);
  }
  return list;
}

async function insertMembers(db: Queryable, roomId: string, members: Map<string, ChatRole>): Promise<void> {
  await db.query(sql`INSERT INTO fw_chat_members (room_id, user_id, role)
    SELECT ${roomId}::uuid, u, r FROM unnest(${[...members.keys()]}::text[], ${[...members.values()]}::text[]) AS t(u, r)
    ON CONFLICT (room_id, user_id) DO NOTHING`);
}

function checkRoomSize(scope: SessionScope, count: number): void {
  if (count > scope.limits.maxRoomMembers) throw new ChatHttpError('CHAT_ROOM_FULL', `A room has at most ${scope.limits.maxRoomMembers} members; this would make ${count}.`);
}

/** A group room; the caller is its owner. */
export async function createRoom(scope: SessionScope, input: CreateRoomInput & { readonly resource?: string }): Promise<ChatRoom> {
  const members = memberList(scope.userId, input.members);
  checkRoomSize(scope, members.size);
  return scope.db.transaction(async (tx) => {
    const room = await tx.one<RoomRow>(sql`INSERT INTO fw_chat_rooms (kind, name, resource, created_by)
      VALUES ('group', ${input.name ?? null}, ${input.resource ?? null}, ${scope.userId}) RETURNING ${ROOM_COLUMNS}`);
    await insertMembers(tx, room.id, members);
    return toRoom(room);
  });
}

/**
 * The room of a resource (`task:<id>`), created on first use with the caller as its owner; with `join`, the caller
 * becomes a member when not one yet. The app decides who may reach a resource's room (it checks access to the
 * resource first): this call trusts it.
 */
export async function resourceRoom(scope: SessionScope, resource: string, options: CreateRoomInput & { readonly join?: boolean } = {}): Promise<ChatRoom> {
  const existing = await scope.db.maybeOne<RoomRow>(sql`SELECT ${ROOM_COLUMNS} FROM fw_chat_rooms WHERE resource = ${resource}`);
  let room: ChatRoom;
  if (existing) room = toRoom(existing);
  else {
    try {
      room = await createRoom(scope, { ...options, resource });
    } catch (error) {
      // Two first joins at once: the other one created it.
      const raced = await scope.db.maybeOne<RoomRow>(sql`SELECT ${ROOM_COLUMNS} FROM fw_chat_rooms WHERE resource = ${resource}`);
      if (!raced) throw error;
      room = toRoom(raced);
    }
  }
  if (options.join) await joinRoom(scope, room.id, 'member');
  return room;
}

/** The one direct room of the caller and `otherUserId` (created on first use; both are members, neither can add anyone). */
export async function directRoom(scope: SessionScope, otherUserId: string): Promise<ChatRoom> {
  const key = [scope.userId, otherUserId].sort().map((id) => encodeURIComponent(id)).join(' ');
  const find = () => scope.db.maybeOne<RoomRow>(sql`SELECT ${ROOM_COLUMNS} FROM fw_chat_rooms WHERE direct_key = ${key}`);
  const existing = await find();
  if (existing) return toRoom(existing);
  try {
    return await scope.db.transaction(async (tx) => {
      const room = await tx.one<RoomRow>(sql`INSERT INTO fw_chat_rooms (kind, direct_key, created_by) VALUES ('direct', ${key}, ${scope.userId}) RETURNING ${ROOM_COLUMNS}`);
      await insertMembers(tx, room.id, new Map<string, ChatRole>([[scope.userId, 'member'], [otherUserId, 'member']]));
      return toRoom(room);
    });
  } catch (error) {
    const raced = await find();
    if (!raced) throw error;
    return toRoom(raced);
  }
}

/** Adds the caller to a room without any check of a role (what `resourceRoom({ join: true })` does). */
async function joinRoom(scope: SessionScope, roomId: string, role: ChatRole): Promise<void> {
  await scope.db.transaction(async (tx) => {
    const room = await tx.one<{ members: number; mine: boolean }>(sql`SELECT (SELECT count(*)::int FROM fw_chat_members WHERE room_id = ${roomId}) AS members,
      EXISTS (SELECT 1 FROM fw_chat_members WHERE room_id = ${roomId} AND user_id = ${scope.userId}) AS mine
      FROM fw_chat_rooms WHERE id = ${roomId} FOR UPDATE`);
    if (room.mine) return;
    checkRoomSize(scope, room.members + 1);
    await insertMembers(tx, roomId, new Map([[scope.userId, role]]));
  });
}

/** The caller's rooms, each with the caller's role and exact unread count (messages after the watermark, not the caller's, not deleted). */
export async function listRooms(scope: SessionScope): Promise<ChatRoomSummary[]> {
  const rows = await scope.db.many<RoomRow & { role: ChatRole; last_read_seq: number; unread: number }>(sql`
    SELECT r.id, r.kind, r.name, r.resource, r.created_by, r.created_at, r.last_seq, r.last_rev, m.role, m.last_read_seq,
      (SELECT count(*)::int FROM fw_chat_messages x
        WHERE x.room_id = r.id AND x.seq > m.last_read_seq AND x.deleted_at IS NULL AND x.sender <> m.user_id) AS unread
    FROM fw_chat_members m JOIN fw_chat_rooms r ON r.id = m.room_id
    WHERE m.user_id = ${scope.userId} ORDER BY r.created_at, r.id`);
  return rows.map((row) => ({ ...toRoom(row), role: row.role, lastReadSeq: row.last_read_seq, unread: row.unread }));
}

export async function getRoom(scope: SessionScope, roomId: string): Promise<ChatRoom> {
  return toRoom((await requireRole(scope, roomId, 'read')).room);
}

/** The room's members with their role and read watermark (what read receipts show). */
export async function listMembers(scope: SessionScope, roomId: string): Promise<ChatMember[]> {
  await requireRole(scope, roomId, 'read');
  const rows = await scope.db.many<MemberRow>(sql`SELECT user_id, role, last_read_seq, joined_at FROM fw_chat_members WHERE room_id = ${roomId} ORDER BY joined_at, user_id`);
  return rows.map(toMember);
}

/** What adding, removing or re-roling `role` needs: moderators handle members, owners handle everyone. */
function permissionFor(role: ChatRole): RoomPermission {
  return role === 'member' ? 'moderate' : 'manage';
}

export async function addMember(scope: SessionScope, roomId: string, userId: string, role: ChatRole = 'member'): Promise<ChatMember> {
  const { room } = await requireRole(scope, roomId, permissionFor(role));
  if (room.kind === 'direct') throw new ChatHttpError('CHAT_ROLE_REQUIRED', 'A direct room has exactly its two members: create a group room to talk with more people.');
  const member = await scope.db.transaction(async (tx) => {
    const count = await tx.one<{ members: number }>(sql`SELECT (SELECT count(*)::int FROM fw_chat_members WHERE room_id = ${roomId}) AS members FROM fw_chat_rooms WHERE id = ${roomId} FOR UPDATE`);
    const existing = await tx.maybeOne<MemberRow>(sql`SELECT user_id, role, last_read_seq, joined_at FROM fw_chat_members WHERE room_id = ${roomId} AND user_id = ${userId}`);
    if (existing) return toMember(existing);
    checkRoomSize(scope, count.members + 1);
    return toMember(await tx.one<MemberRow>(sql`INSERT INTO fw_chat_members (room_id, user_id, role) VALUES (${roomId}, ${userId}, ${role}) RETURNING user_id, role, last_read_seq, joined_at`));
  });
  await emit(scope, { type: 'member.added', roomId, member });
  return member;
}

/** Removes a member; anyone may remove themselves (leave). False when they were not a member. */
export async function removeMember(scope: SessionScope, roomId: string, userId: string): Promise<boolean> {
  if (userId !== scope.userId) {
    const target = await scope.db.maybeOne<{ role: ChatRole }>(sql`SELECT role FROM fw_chat_members WHERE room_id = ${roomId} AND user_id = ${userId}`);
    await requireRole(scope, roomId, permissionFor(target?.role ?? 'member'));
  } else await requireRole(scope, roomId, 'read');
  const removed = await scope.db.query(sql`DELETE FROM fw_chat_members WHERE room_id = ${roomId} AND user_id = ${userId}`);
  if (removed.rowCount > 0) await emit(scope, { type: 'member.removed', roomId, userId });
  return removed.rowCount > 0;
}

/** Changes a member's role: owners only. */
export async function setRole(scope: SessionScope, roomId: string, userId: string, role: ChatRole): Promise<ChatMember> {
  await requireRole(scope, roomId, 'manage');
  const row = await scope.db.maybeOne<MemberRow>(sql`UPDATE fw_chat_members SET role = ${role} WHERE room_id = ${roomId} AND user_id = ${userId} RETURNING user_id, role, last_read_seq, joined_at`);
  if (!row) throw new ChatHttpError('CHAT_INVALID_INPUT', `${userId} is not a member of room ${roomId}: add them first.`);
  return toMember(row);
}

