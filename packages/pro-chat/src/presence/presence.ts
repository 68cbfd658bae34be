import { sql } from '@framework/data';
import { requireRole, type SessionScope } from '../session/session-scope.js';

export { resolvePresenceOptions, type PresenceOptions, type PresenceStatus, type ResolvedPresenceOptions } from './presence-options.js';
import type { PresenceStatus, ResolvedPresenceOptions } from './presence-options.js';

export interface RoomPresence {
  readonly userId: string;
  readonly status: PresenceStatus;
  readonly typing: boolean;
}

const ms = (value: number) => sql`(${value}::int * interval '1 millisecond')`;

/** Records a heartbeat; true when the member's visible status changed (they came online, or switched online/away). */
export async function heartbeat(scope: SessionScope, presence: ResolvedPresenceOptions, roomId: string, status: PresenceStatus): Promise<boolean> {
  await requireRole(scope, roomId, 'read');
  const row = await scope.db.one<{ changed: boolean }>(sql`
    WITH before AS (SELECT status, expires_at > now() AS live FROM fw_chat_presence WHERE room_id = ${roomId} AND user_id = ${scope.userId})
    INSERT INTO fw_chat_presence (room_id, user_id, status, expires_at) VALUES (${roomId}, ${scope.userId}, ${status}, now() + ${ms(presence.ttlMs)})
    ON CONFLICT (room_id, user_id) DO UPDATE SET status = EXCLUDED.status, expires_at = EXCLUDED.expires_at
    RETURNING NOT COALESCE((SELECT live AND status = ${status} FROM before), false) AS changed`);
  return row.changed;
}

/** Records that the member is typing; false when it came sooner than `typingIntervalMs` after the last one (dropped). */
export async function typing(scope: SessionScope, presence: ResolvedPresenceOptions, roomId: string): Promise<boolean> {
  await requireRole(scope, roomId, 'send');
  const row = await scope.db.maybeOne<{ ok: boolean }>(sql`
    INSERT INTO fw_chat_presence (room_id, user_id, status, expires_at, typing_until)
    VALUES (${roomId}, ${scope.userId}, 'online', now() + ${ms(presence.ttlMs)}, now() + ${ms(presence.typingTtlMs)})
    ON CONFLICT (room_id, user_id) DO UPDATE SET typing_until = EXCLUDED.typing_until, expires_at = GREATEST(fw_chat_presence.expires_at, now() + ${ms(presence.typingTtlMs)})
      WHERE fw_chat_presence.typing_until IS NULL OR fw_chat_presence.typing_until <= now() + ${ms(presence.typingTtlMs - presence.typingIntervalMs)}
    RETURNING true AS ok`);
  return row !== undefined;
}

/** The member went away from the room (left it, or closed the connection): offline and not typing at once. */
export async function goOffline(scope: SessionScope, roomId: string): Promise<void> {
  await requireRole(scope, roomId, 'read');
  await scope.db.query(sql`UPDATE fw_chat_presence SET expires_at = now(), typing_until = NULL WHERE room_id = ${roomId} AND user_id = ${scope.userId}`);
}

/** Who is online or away in the room now, and who of them is typing: expired heartbeats and typing are not shown. */
export async function roomPresence(scope: SessionScope, roomId: string): Promise<RoomPresence[]> {
  await requireRole(scope, roomId, 'read');
  const rows = await scope.db.many<{ user_id: string; status: PresenceStatus; typing: boolean }>(sql`
    SELECT user_id, status, COALESCE(typing_until > now(), false) AS typing FROM fw_chat_presence
    WHERE room_id = ${roomId} AND expires_at > now() ORDER BY user_id`);
  return rows.map((row) => ({ userId: row.user_id, status: row.status, typing: row.typing }));
}
