import { sql, type Queryable } from '@framework/data';
import type { PreSendHook } from '../hooks/pre-send.js';
import type { ResolvedChatLimits } from '../limits/chat-limits.js';
import { ChatHttpError } from '../errors.js';
import type { ChatEvent } from '../events/chat-event.js';
import { roleAllows, weakestRoleWith, type RoomPermission } from '../permissions/room-permissions.js';
import type { RoomRow } from '../model/rows.js';
import type { ResolvedPresenceOptions } from '../presence/presence-options.js';
import type { ChatRole } from '../model/types.js';

/** What every operation of a session reads: the caller, the database (RLS on: the tenant's rows only), the settings. */
export interface SessionScope {
  readonly db: Queryable;
  readonly userId: string;
  readonly limits: ResolvedChatLimits;
  readonly preSend: PreSendHook | undefined;
  readonly preSendBudgetMs: number;
  readonly onEvent: ((event: ChatEvent) => unknown) | undefined;
  /** Where this session's events also go (the WebSocket fan-out of the call's own path). */
  readonly fanOut: ((event: ChatEvent) => unknown) | undefined;
  readonly presence: ResolvedPresenceOptions;
}

/**
 * The room and the caller's role in it, checked for `permission`: the one gate every operation passes. A room of
 * another tenant is invisible (row-level security), so it is "not found", never "forbidden".
 */
export async function requireRole(scope: SessionScope, roomId: string, permission: RoomPermission, db: Queryable = scope.db): Promise<{ room: RoomRow; role: ChatRole }> {
  const row = await db.maybeOne<RoomRow & { role: ChatRole | null }>(sql`
    SELECT r.id, r.kind, r.name, r.resource, r.created_by, r.created_at, r.last_seq, r.last_rev, m.role
    FROM fw_chat_rooms r LEFT JOIN fw_chat_members m ON m.room_id = r.id AND m.user_id = ${scope.userId}
    WHERE r.id = ${roomId}`);
  return checkRole(row, roomId, permission);
}

/** `requireRole`'s verdict on a row already read (the room, or none, and the caller's role in it, or none). */
export function checkRole(row: (RoomRow & { role: ChatRole | null }) | undefined, roomId: string, permission: RoomPermission): { room: RoomRow; role: ChatRole } {
  if (!row) throw new ChatHttpError('CHAT_ROOM_NOT_FOUND', `There is no room ${roomId}.`);
  if (!row.role) throw new ChatHttpError('CHAT_NOT_A_MEMBER', `You are not a member of room ${roomId}: ask one of its owners or moderators to add you.`);
  if (!roleAllows(row.role, permission)) throw new ChatHttpError('CHAT_ROLE_REQUIRED', `This needs the role ${weakestRoleWith(permission)} (or stronger) in room ${roomId}; yours is ${row.role}.`);
  const { role, ...room } = row;
  return { room, role };
}

/** Hands an event to the app's `onEvent` (a queue, usually) after the change committed. */
export async function emit(scope: SessionScope, event: ChatEvent): Promise<void> {
  if (scope.onEvent) await scope.onEvent(event);
  if (scope.fanOut) await scope.fanOut(event);
}
