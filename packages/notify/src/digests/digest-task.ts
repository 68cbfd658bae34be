import type { Database, Transaction } from '@framework/data';
import type { TaskFn } from '@framework/runtime';
import type { DigestWindow } from './digest-window.js';
import { runDigest, type Digest } from './digest-store.js';

/**
 * The body of a digest cron: `export const main = taskHandler(digestTask({ category, window, send }))` in
 * `src/crons/<id>.ts`, with the cron declared in fw.config.ts (`schedules: [{ id, schedule: { cron: '5 0 * * ? *' } }]`
 * for a daily window closing at midnight UTC). The run's time is the scheduler event's `time` (the scheduled time, which
 * `fw dev`'s clock and `@framework/testing`'s set too), so a late or retried invocation closes the window it was
 * scheduled for; without one (an invoke by hand), the invocation's timestamp.
 */
export function digestTask<T = unknown>(options: {
  readonly category: string;
  readonly window: DigestWindow;
  readonly send: (tx: Transaction, digest: Digest<T>) => Promise<void>;
  /** @default - `service.db` */
  readonly database?: () => Database;
}): TaskFn<unknown, { users: number; items: number; windowEnd: string }> {
  return async (event, ctx, service) => {
    const db = options.database?.() ?? service.db;
    const result = await runDigest<T>(db, { category: options.category, window: options.window, now: scheduledTimeOf(event) ?? ctx.timestamp, send: options.send });
    return { users: result.users, items: result.items, windowEnd: result.windowEnd.toISOString() };
  };
}

/** The `time` of an EventBridge Scheduler event (`{ 'detail-type': 'Scheduled Event', time }`), when it has one. */
function scheduledTimeOf(event: unknown): Date | undefined {
  const time = (event as { time?: unknown } | null)?.time;
  if (typeof time !== 'string') return undefined;
  const date = new Date(time);
  return Number.isNaN(date.getTime()) ? undefined : date;
}
