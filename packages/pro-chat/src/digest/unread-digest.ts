import { createHash } from 'node:crypto';
import { sql, type Queryable } from '@framework/data';
import type { Notifier, Queued, Recipient } from '@framework/notify';
import { currentTenant } from '@framework/runtime';
import { ChatConfigError } from '../errors.js';
import { UNREAD_DIGEST_TEMPLATE, type UnreadDigestData } from './unread-digest-notification.js';

export interface UnreadDigestOptions {
  // The app's notifier is typed by its own templates; the digest template is found by name.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  readonly notifier: Notifier<any>;
  /** Who a member is to notify (their address, locale); undefined: no digest for them (nothing is marked told). */
  recipient(userId: string): Promise<Recipient | undefined> | Recipient | undefined;
  /**
   * A message is in a digest once it has been unread this long.
   * @default 15
   */
  readonly afterMinutes?: number;
  /**
   * The template's name in the app's templates (`unreadDigestNotification` registered under it).
   * @default 'chat-unread-digest'
   */
  readonly template?: string;
  /**
   * "Now" (the scheduler event's time, so a testing clock drives it).
   * @default - the database's clock
   */
  readonly now?: Date;
}

export interface UnreadDigestResult {
  /** Members sent one digest each (one outbox row per channel). */
  readonly digests: number;
  /** Members with unread messages but no recipient (`recipient` answered undefined). */
  readonly skipped: number;
  /** Outbox rows written: hand them to `notifier.dispatch` after the call (else the sweeper delivers them). */
  readonly queued: readonly Queued[];
}

interface CandidateRow {
  user_id: string;
  room_id: string;
  name: string | null;
  resource: string | null;
  unread: number;
  upto: number;
}

/**
 * One digest per member of the current tenant with messages unread for `afterMinutes` or more (not their own, not
 * deleted, past both their read watermark and what an earlier digest told them), through notify's outbox. Each
 * member's digest is written in one transaction with the move of their digest watermarks (`digested_seq`), and keyed
 * by the member and those watermarks: a retried or concurrent run sends nothing twice, and a message is told of once.
 * Run it per tenant (`forEachTenant`, or `runWithTenant` for each tenant with members): the chat tables are tenant
 * tables.
 */
export async function sendUnreadDigests(db: Queryable, options: UnreadDigestOptions): Promise<UnreadDigestResult> {
  const afterMinutes = options.afterMinutes ?? 15;
  if (!Number.isInteger(afterMinutes) || afterMinutes < 1 || afterMinutes > 10_080) throw new ChatConfigError('FW_ERR_CHAT_INVALID_OPTIONS', `afterMinutes must be a whole number of minutes from 1 to 10080 (a week); got ${String(afterMinutes)}`);
  if (typeof options.recipient !== 'function') throw new ChatConfigError('FW_ERR_CHAT_INVALID_OPTIONS', 'recipient must be a function (userId) => { email?, phone?, ... } | undefined');
  const tenant = currentTenant();
  if (!tenant) throw new ChatConfigError('FW_ERR_CHAT_INVALID_OPTIONS', 'sendUnreadDigests runs as a tenant (the chat tables are tenant tables): call it inside forEachTenant(...) or runWithTenant({ id }, ...)');
  const now = options.now ? sql`${options.now}::timestamptz` : sql`now()`;
  const rows = await db.many<CandidateRow>(sql`
    SELECT mb.user_id, mb.room_id, r.name, r.resource, count(*)::int AS unread, max(x.seq)::int AS upto
    FROM fw_chat_members mb
    JOIN fw_chat_rooms r ON r.id = mb.room_id
    JOIN fw_chat_messages x ON x.room_id = mb.room_id AND x.seq > GREATEST(mb.last_read_seq, mb.digested_seq)
      AND x.sender <> mb.user_id AND x.deleted_at IS NULL AND x.created_at <= ${now} - ${afterMinutes}::int * interval '1 minute'
    GROUP BY mb.user_id, mb.room_id, r.name, r.resource
    ORDER BY mb.user_id, mb.room_id`);
  const byUser = new Map<string, CandidateRow[]>();
  for (const row of rows) byUser.set(row.user_id, [...(byUser.get(row.user_id) ?? []), row]);
  const template = options.template ?? UNREAD_DIGEST_TEMPLATE;
  const queued: Queued[] = [];
  let digests = 0;
  let skipped = 0;
  for (const [userId, rooms] of byUser) {
    const to = await options.recipient(userId);
    if (!to) {
      skipped++;
      continue;
    }
    const sent = await db.transaction(async (tx) => {
      // Only the rooms whose watermark this run moves: a concurrent run that moved one first tells of it itself.
      const moved = await tx.many<{ room_id: string }>(sql`
        UPDATE fw_chat_members mb SET digested_seq = t.upto
        FROM unnest(${rooms.map((r) => r.room_id)}::uuid[], ${rooms.map((r) => r.upto)}::int[]) AS t(room_id, upto)
        WHERE mb.room_id = t.room_id AND mb.user_id = ${userId} AND mb.digested_seq < t.upto
        RETURNING mb.room_id`);
      const movedIds = new Set(moved.map((m) => m.room_id));
      const told = rooms.filter((r) => movedIds.has(r.room_id));
      if (told.length === 0) return undefined;
      const data: UnreadDigestData = {
        total: told.reduce((sum, r) => sum + r.unread, 0),
        rooms: told.map((r) => ({ roomId: r.room_id, name: r.name, resource: r.resource, unread: r.unread })),
      };
      const key = `chat-digest:${tenant.id}:${userId}:${told.map((r) => `${r.room_id}@${r.upto}`).join(',')}`;
      // The key is at most 255 characters (notify's limit): a long one is kept unique by its hash.
      return options.notifier.send(tx, { to: { userId, ...to }, template, data, idempotencyKey: key.length <= 255 ? key : `chat-digest:${createHash('sha256').update(key).digest('hex')}` });
    });
    if (sent) {
      digests++;
      queued.push(sent);
    }
  }
  return { digests, skipped, queued };
}
