import { nextCronTime, parseSchedule, type AppDefinition, type CronDefinition } from '@framework/core';
import { buildScheduledEvent } from '../events/scheduled-event.js';
import type { DevContext, DevEngine, EngineFactory, EngineStart } from './engine.js';

/** Options of the embedded scheduler. */
export interface EmbeddedSchedulerOptions {
  /** First retry delay; each next one doubles (the cloud scheduler's exponential backoff, shortened). @default 1000 */
  readonly retryBaseMs?: number;
}

/** setTimeout holds at most 2^31-1 ms; a later fire is re-armed in steps. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * Fires each enabled cron on its expression, UTC, with core's parser (so it fires exactly when the cloud scheduler
 * would): `cron(...)` at the next matching minute, `rate(n unit)` every n units from start-up. A failed run
 * (threw, timed out, crashed) is retried `retryAttempts` times (default 2) with exponential backoff.
 */
export class EmbeddedScheduler implements DevEngine {
  readonly intent = 'schedules' as const;
  readonly kind = 'embedded' as const;
  private readonly timers = new Map<string, NodeJS.Timeout>();
  private stopped = false;
  private context?: DevContext;

  constructor(private readonly options: EmbeddedSchedulerOptions = {}) {}

  async start(app: AppDefinition, context: DevContext): Promise<EngineStart> {
    this.context = context;
    const summary: string[] = [];
    for (const cron of app.crons) {
      if (!cron.enabled) {
        summary.push(`${cron.id}: ${cron.expression} (disabled)`);
        continue;
      }
      const next = this.arm(cron.id);
      summary.push(`${cron.id}: ${cron.expression}, next ${next ? next.toISOString() : 'never'}`);
    }
    return { outputs: {}, summary };
  }

  /** Runs a cron now with the scheduler's retries; resolves after the last attempt. */
  async fire(cron: CronDefinition, time = new Date()): Promise<boolean> {
    const context = this.context!;
    const base = this.options.retryBaseMs ?? 1000;
    for (let attempt = 0; attempt <= cron.retryAttempts; attempt++) {
      if (this.stopped) return false;
      if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, base * 2 ** (attempt - 1)));
      const outcome = await context.invoke(cron, buildScheduledEvent(context.currentApp().region, cron.ruleName, time));
      if (outcome.ok) return true;
      context.log.warn(`cron ${cron.id}: attempt ${attempt + 1} of ${cron.retryAttempts + 1} failed (${outcome.errorType}: ${outcome.errorMessage})`);
    }
    context.log.error(`cron ${cron.id}: gave up after ${cron.retryAttempts + 1} attempts`);
    return false;
  }

  private arm(id: string, from = new Date()): Date | undefined {
    const cron = this.context!.currentApp().crons.find((c) => c.id === id);
    if (!cron || !cron.enabled || this.stopped) return undefined;
    const parsed = parseSchedule(cron.schedule);
    if (!parsed.ok) return undefined;
    const next = parsed.kind === 'cron' ? nextCronTime(parsed.cron, from) : new Date(from.getTime() + parsed.rateMs);
    if (!next) return undefined;
    const wait = (target: Date) => {
      const ms = target.getTime() - Date.now();
      const timer = setTimeout(() => {
        if (target.getTime() > Date.now()) return wait(target);
        const current = this.context!.currentApp().crons.find((c) => c.id === id);
        if (current) void this.fire(current, target);
        this.arm(id, target);
      }, Math.min(Math.max(0, ms), MAX_TIMER_MS));
      timer.unref();
      this.timers.set(id, timer);
    };
    wait(next);
    return next;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    for (const timer of this.timers.values()) clearTimeout(timer);
    this.timers.clear();
  }
}

export const embeddedSchedules: EngineFactory = {
  intent: 'schedules',
  kind: 'embedded',
  label: 'local scheduler (UTC)',
  isAvailable: async () => true,
  isNeeded: (app) => app.crons.length > 0,
  create: () => new EmbeddedScheduler(),
};
