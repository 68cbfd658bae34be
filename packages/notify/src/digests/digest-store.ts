import { sql, type Queryable, type Transaction } from '@framework/data';
import { DigestFailedError, InvalidNotifyArgumentError } from '../errors.js';
import { lastCompleteWindow, type DigestWindow } from './digest-window.js';

/** One event waiting for its digest. */
export interface DigestItem<T = unknown> {
  readonly id: string;
  readonly data: T;
  readonly createdAt: Date;
}

/** What a digest run hands to `send` for one user. */
export interface Digest<T = unknown> {
  readonly userId: string;
  readonly category: string;
  /** The window this run closes; items of earlier, missed windows are included too (oldest first). */
  readonly windowStart: Date;
  readonly windowEnd: Date;
  readonly items: readonly DigestItem<T>[];
}

/**
 * Adds an event to the user's pending digest of `category` (instead of sending it now). Pass the business
 * transaction: an event of a rolled-back transaction never reaches a digest.
 */
export async function addToDigest(db: Queryable, entry: { readonly userId: string; readonly category: string; readonly data: unknown; readonly at?: Date }): Promise<void> {
  if (typeof entry.userId !== 'string' || !entry.userId) throw new InvalidNotifyArgumentError('digest user id', 'pass a non-empty string');
  if (typeof entry.category !== 'string' || !entry.category) throw new InvalidNotifyArgumentError('digest category', 'pass a non-empty string');
  await db.query(sql`INSERT INTO fw_notify_digest_items (user_id, category, data, created_at) VALUES (${entry.userId}, ${entry.category}, ${sql.json(entry.data)}, ${entry.at ?? new Date()})`);
}

interface ItemRow {
  id: string;
  user_id: string;
  data: unknown;
  created_at: Date;
}

export interface RunDigestOptions<T> {
  readonly category: string;
  readonly window: DigestWindow;
  /** The run's time (the cron's fire time): the window that ended last before it is closed. */
  readonly now: Date;
  /**
   * Called once per user with pending items, inside the transaction that marks them sent: write the digest
   * notification with `notify.send(tx, ...)` there, so the items are flushed exactly when the notification is queued.
   */
  readonly send: (tx: Transaction, digest: Digest<T>) => Promise<void>;
}

/**
 * Closes the last complete window of `category`: every pending item created before the window's end, per user, goes
 * to `send` and is marked flushed in the same transaction. Items at or after the end wait for the next window. Two
 * runs at once (a cron fired twice) never send an item twice: rows are claimed with `FOR UPDATE SKIP LOCKED`. When
 * `send` throws for some users, the others are still sent and the run then throws `DigestFailedError`.
 */
export async function runDigest<T = unknown>(db: Queryable, options: RunDigestOptions<T>): Promise<{ readonly users: number; readonly items: number; readonly windowEnd: Date }> {
  const { start, end } = lastCompleteWindow(options.window, options.now);
  const userIds = await db.many<{ user_id: string }>(
    sql`SELECT DISTINCT user_id FROM fw_notify_digest_items WHERE category = ${options.category} AND flushed_at IS NULL AND created_at < ${end} ORDER BY user_id`,
  );
  let users = 0;
  let items = 0;
  const failures: { userId: string; error: unknown }[] = [];
  for (const { user_id: userId } of userIds) {
    // One transaction per user: a failing send for one user leaves the others' digests sent and its own pending.
    const sent = await db.transaction(async (tx) => {
      const rows = await tx.many<ItemRow>(sql`
        SELECT id::text AS id, user_id, data, created_at FROM fw_notify_digest_items
        WHERE category = ${options.category} AND user_id = ${userId} AND flushed_at IS NULL AND created_at < ${end}
        ORDER BY created_at, id FOR UPDATE SKIP LOCKED`);
      if (rows.length === 0) return 0;
      await options.send(tx, {
        userId,
        category: options.category,
        windowStart: start,
        windowEnd: end,
        items: rows.map((row) => ({ id: row.id, data: row.data as T, createdAt: row.created_at })),
      });
      await tx.query(sql`UPDATE fw_notify_digest_items SET flushed_at = ${options.now} WHERE id = ANY(${rows.map((r) => r.id)}::bigint[])`);
      return rows.length;
    }).catch((error: unknown) => {
      failures.push({ userId, error });
      return 0;
    });
    if (sent > 0) {
      users += 1;
      items += sent;
    }
  }
  // Thrown after the others were sent, so the cron's retry (or the next run) picks up only what failed.
  if (failures.length > 0) throw new DigestFailedError(options.category, failures.map((f) => f.userId), failures[0]!.error);
  return { users, items, windowEnd: end };
}
