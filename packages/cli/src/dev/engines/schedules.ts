import * as path from 'node:path';
import { nextCronTime, parseSchedule, type AppDefinition, type CronDefinition } from '@framework/core';
import { DevClock, type DevTimer } from '../clock/index.js';
import { AppendOnlyLog } from '../durable-log/index.js';
import { buildScheduledEvent } from '../events/scheduled-event.js';
import type { DevContext, DevEngine, EngineFactory, EngineStart } from './engine.js';

/** Options of the embedded scheduler. */
export interface EmbeddedSchedulerOptions {
  /** First retry delay; each next one doubles (the cloud scheduler's exponential backoff, shortened). @default 1000 */
  readonly retryBaseMs?: number;
}

/**
 * How the retries log records runs: `pending` says attempt `attempt` (0 = the first) of the run of `cron` for the
 * scheduled `time` is due at `dueAt`; `done` ends the run (succeeded, or gave up). Absolute values: replaying one
 * twice changes nothing.
 */
export type ScheduleRecord =
  | { readonly op: 'pending'; readonly key: string; readonly cron: string; readonly time: string; readonly attempt: number; readonly dueAt: number }
  | { readonly op: 'done'; readonly key: string };

type PendingRun = Extract<ScheduleRecord, { op: 'pending' }>;

/**
 * Fires each enabled cron on its expression, UTC, with core's parser (so it fires exactly when the cloud scheduler
 * would): `cron(...)` at the next matching minute, `rate(n unit)` every n units from start-up. A failed run
 * (threw, timed out, crashed) is retried `retryAttempts` times (default 2) with exponential backoff.
 *
 * A run that has started and not ended (an attempt running, or a retry waiting) is kept in
 * `.fw/schedules/retries.log`; after a restart or a `kill -9`, `fw dev` resumes it: the attempt that was cut off is
 * made again, a waiting retry fires at its time (at once if that has passed), and the attempts already made count.
 */
export class EmbeddedScheduler implements DevEngine {
  readonly intent = 'schedules' as const;
  readonly kind = 'embedded' as const;
  private readonly timers = new Map<string, DevTimer>();
  private readonly runs = new Map<string, PendingRun>();
  private log?: AppendOnlyLog<ScheduleRecord>;
  private stopped = false;
  private context?: DevContext;
  private clock = new DevClock();

  constructor(private readonly options: EmbeddedSchedulerOptions = {}) {}

  async start(app: AppDefinition, context: DevContext): Promise<EngineStart> {
    this.context = context;
    this.clock = context.clock ?? this.clock;
    const opened = await AppendOnlyLog.open<ScheduleRecord>(retriesLogFile(context.dataDir), {
      snapshot: () => [...this.runs.values()],
      onRecover: (problem) => context.log.warn(`schedules: ${problem}`),
    });
    this.log = opened.log;
    for (const record of opened.records) {
      if (record.op === 'pending') this.runs.set(record.key, record);
      else this.runs.delete(record.key);
    }
    const summary: string[] = [];
    for (const cron of app.crons) {
      if (!cron.enabled) {
        summary.push(`${cron.id}: ${cron.expression} (disabled)`);
        continue;
      }
      const next = this.arm(cron.id);
      summary.push(`${cron.id}: ${cron.expression}, next ${next ? next.toISOString() : 'never'}`);
    }
    for (const run of [...this.runs.values()]) this.resume(run);
    return { outputs: {}, summary };
  }

  /** Runs a cron now with the scheduler's retries; resolves after the last attempt (or when `fw dev` stops). */
  async fire(cron: CronDefinition, time = new Date(this.clock.now())): Promise<boolean> {
    // Held from the first step: a test's `advance` must not move on while the run is being written down. The same
    // hold carries the attempts and is given back while a retry waits: a second hold kept across that wait would
    // keep a manual clock busy for ever, so `advance` would never reach the retry's time (a cron failing every run
    // hung `advance('1d')`).
    const hold = this.clock.hold();
    try {
      const key = `${cron.id}@${time.toISOString()}`;
      const run: PendingRun = { op: 'pending', key, cron: cron.id, time: time.toISOString(), attempt: 0, dueAt: this.clock.now() };
      if (!(await this.record(run))) return false;
      return await this.attemptsHeld(cron, run, hold.sleepUntil);
    } finally {
      hold.release();
    }
  }

  /** A run found in the log: continue it with the attempt it was at, at its time. */
  private resume(run: PendingRun): void {
    const cron = this.context!.currentApp().crons.find((c) => c.id === run.cron);
    if (!cron || !cron.enabled) {
      this.context!.log.warn(`cron ${run.cron}: a run for ${run.time} was pending from the last run of fw dev, but the cron is ${cron ? 'disabled' : 'gone'}; dropped`);
      void this.record({ op: 'done', key: run.key });
      return;
    }
    this.context!.log.info(`cron ${cron.id}: resuming the run for ${run.time} from the last run of fw dev (attempt ${run.attempt + 1} of ${cron.retryAttempts + 1})`);
    void this.attempts(cron, run);
  }

  private async attempts(cron: CronDefinition, from: PendingRun): Promise<boolean> {
    // Held work of the clock: a test's `advance` returns after the run, retries within its window included.
    const hold = this.clock.hold();
    try {
      return await this.attemptsHeld(cron, from, hold.sleepUntil);
    } finally {
      hold.release();
    }
  }

  private async attemptsHeld(cron: CronDefinition, from: PendingRun, sleepUntil: (at: number) => Promise<void>): Promise<boolean> {
    const context = this.context!;
    const base = this.options.retryBaseMs ?? 1000;
    const time = new Date(from.time);
    let run = from;
    for (let attempt = from.attempt; attempt <= cron.retryAttempts; attempt++) {
      if (this.stopped) return false;
      if (attempt > run.attempt) {
        run = { ...run, attempt, dueAt: this.clock.now() + base * 2 ** (attempt - 1) };
        if (!(await this.record(run))) return false;
      }
      if (run.dueAt > this.clock.now()) await sleepUntil(run.dueAt);
      if (this.stopped) return false;
      const outcome = await context.invoke(cron, buildScheduledEvent(context.currentApp().region, cron.ruleName, time));
      if (outcome.ok) {
        await this.record({ op: 'done', key: run.key });
        return true;
      }
      context.log.warn(`cron ${cron.id}: attempt ${attempt + 1} of ${cron.retryAttempts + 1} failed (${outcome.errorType}: ${outcome.errorMessage})`);
    }
    if (this.stopped) return false;
    await this.record({ op: 'done', key: run.key });
    context.log.error(`cron ${cron.id}: gave up after ${cron.retryAttempts + 1} attempts`);
    return false;
  }

  /** Keeps the run's state in memory and on disk; false if the disk refused (logged: the run goes on, not kept). */
  private async record(record: ScheduleRecord): Promise<boolean> {
    if (record.op === 'pending') this.runs.set(record.key, record);
    else this.runs.delete(record.key);
    try {
      await this.log?.append(record);
      return true;
    } catch (error) {
      if (this.stopped) return false;
      this.context!.log.error(`schedules: could not write to ${path.basename(this.log!.file)} (${(error as Error).message}); a restart now would forget this run of the cron`);
      return true;
    }
  }

  private arm(id: string, from = new Date(this.clock.now())): Date | undefined {
    const cron = this.context!.currentApp().crons.find((c) => c.id === id);
    if (!cron || !cron.enabled || this.stopped) return undefined;
    const parsed = parseSchedule(cron.schedule);
    if (!parsed.ok) return undefined;
    const next = parsed.kind === 'cron' ? nextCronTime(parsed.cron, from) : new Date(from.getTime() + parsed.rateMs);
    if (!next) return undefined;
    const timer = this.clock.setTimer(
      next.getTime(),
      () => {
        const current = this.context!.currentApp().crons.find((c) => c.id === id);
        if (current) void this.fire(current, next);
        this.arm(id, next);
      },
      { periodic: true, ref: false },
    );
    this.timers.set(id, timer);
    return next;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    for (const timer of this.timers.values()) timer.cancel();
    this.timers.clear();
    await this.log?.close();
  }
}

/** Where runs of crons that have not ended are kept: `.fw/schedules/retries.log`. */
export function retriesLogFile(dataDir: string): string {
  return path.join(dataDir, 'schedules', 'retries.log');
}

export const embeddedSchedules: EngineFactory = {
  intent: 'schedules',
  kind: 'embedded',
  label: 'local scheduler (UTC)',
  isAvailable: async () => true,
  isNeeded: (app) => app.crons.length > 0,
  create: () => new EmbeddedScheduler(),
};
