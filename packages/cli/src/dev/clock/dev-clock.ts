import type { UnitKind } from '@framework/core';
import { DevServerError } from '../../errors.js';

/** setTimeout holds at most 2^31-1 ms; a later timer is re-armed in steps. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/** How the engines of `fw dev` tell time: the machine's clock, or one a test moves (`@framework/testing`). */
export type DevClockMode = 'real' | 'manual';

/** A timer of the clock; `cancel` is safe to call after it fired. */
export interface DevTimer {
  cancel(): void;
}

/** Options of `DevClock.setTimer`. */
export interface DevTimerOptions {
  /**
   * A timer that re-arms itself for ever (a cron's next run): `drain()` does not wait for it, only `advance()` fires
   * it. @default false
   */
  readonly periodic?: boolean;
  /** Real clock: whether the timer keeps the process alive. @default true */
  readonly ref?: boolean;
}

/**
 * Work an engine is doing on behalf of the clock (a queue batch, a cron run and its retries). A manual clock's
 * `advance` and `drain` wait until no hold is taken; `sleepUntil` gives the hold back while it waits for a time.
 */
export interface DevClockHold {
  /** Waits until the clock reads `at` (epoch ms), not counting as work meanwhile. */
  sleepUntil(at: number): Promise<void>;
  release(): void;
}

/** One unit run by an engine, as `advance` and `drain` report it. */
export interface DevClockTraceEntry {
  /** The clock's time when it ran (ISO 8601). */
  readonly time: string;
  /** The unit's kind (core's `UnitKind`: a new handler kind is traced without a change here), or a saga step. */
  readonly kind: UnitKind | 'saga';
  /** The unit's id (`daily-summary`, `task-events`); a saga step's `<saga>/<step>` (`<saga>/<step>/compensate`). */
  readonly id: string;
  readonly ok: boolean;
  /** `errorType: errorMessage` of a failed run. */
  readonly error?: string;
}

interface ManualTimer {
  readonly at: number;
  readonly run: () => void;
  readonly periodic: boolean;
  cancelled: boolean;
}

/**
 * The time of `fw dev`'s engines (scheduler, queues). `real` (what `fw dev` uses): `Date.now()` and `setTimeout`,
 * nothing else changes. `manual` (what tests ask for): time stands still at the moment the server started and moves
 * only when the test calls `advance`; nothing scheduled runs before `advance` or `drain` (a message sent now waits
 * for them too); timers due by then fire in order, each at its own time, and `advance` returns
 * once the work they started is done (a cron run, its retries within the window, queue batches and the redeliveries
 * they cause). Handlers themselves keep the machine's clock: only what the engines schedule follows this one.
 */
export class DevClock {
  private current: number;
  private readonly timers: ManualTimer[] = [];
  private holds = 0;
  private readonly idleWaiters: (() => void)[] = [];
  private readonly entries: DevClockTraceEntry[] = [];

  constructor(readonly mode: DevClockMode = 'real', start = Date.now()) {
    this.current = start;
  }

  get manual(): boolean {
    return this.mode === 'manual';
  }

  /** Epoch milliseconds. */
  now(): number {
    return this.manual ? this.current : Date.now();
  }

  /**
   * Calls `run` once the clock reads `at`: real, at that time (on a later turn when it has passed); manual, when
   * `advance` or `drain` reaches it (a timer due now included).
   */
  setTimer(at: number, run: () => void, options: DevTimerOptions = {}): DevTimer {
    if (!this.manual) return realTimer(at, run, options.ref ?? true);
    // Even a timer due now waits for `advance` or `drain`: nothing runs in the engines unless the test moves time, so
    // a test sees exactly what its `drain()` delivered.
    const timer: ManualTimer = { at, run, periodic: options.periodic ?? false, cancelled: false };
    this.timers.push(timer);
    return {
      cancel: () => {
        timer.cancelled = true;
      },
    };
  }

  /** Work that `advance`/`drain` wait for; release it when done (a real clock counts nothing). */
  hold(): DevClockHold {
    if (!this.manual) {
      return { sleepUntil: (at) => new Promise((resolve) => realTimer(at, () => resolve(), false)), release: () => undefined };
    }
    this.holds++;
    let held = true;
    return {
      sleepUntil: (at) => {
        if (held) {
          held = false;
          this.unhold();
        }
        return new Promise((resolve) =>
          this.setTimer(at, () => {
            held = true;
            this.holds++;
            resolve();
          }),
        );
      },
      release: () => {
        if (!held) return;
        held = false;
        this.unhold();
      },
    };
  }

  /** Runs `work` as held work (`advance` and `drain` wait for it). */
  track<T>(work: () => Promise<T>): Promise<T> {
    const hold = this.hold();
    return work().finally(() => hold.release());
  }

  /** Notes a unit run by an engine (the dev server calls this for every engine invocation). */
  record(entry: Omit<DevClockTraceEntry, 'time'>): void {
    if (this.manual) this.entries.push({ time: new Date(this.now()).toISOString(), ...entry });
  }

  /**
   * Manual clock: moves time forward by `ms`, firing every timer due in that window at its own time, and resolves
   * once the work they started is done. Returns what ran. Work due after the window (a retry whose backoff ends
   * later) stays pending for the next `advance` or `drain`. Bounded: after `maxSteps` one-off timers (retries,
   * redeliveries, delayed messages) in one call it throws FW_ERR_DEV_CLOCK_RUNAWAY naming the unit that ran most.
   */
  async advance(ms: number, maxSteps = 10_000): Promise<DevClockTraceEntry[]> {
    this.requireManual('advance');
    if (!Number.isFinite(ms) || ms < 0) throw new RangeError(`the clock moves forward only: ${ms} ms`);
    const from = this.entries.length;
    const to = this.current + ms;
    await this.idle();
    for (let steps = 0; ; ) {
      const next = this.nextTimer((t) => t.at <= to);
      if (!next) break;
      // Crons are bounded by the window; one-off timers can chain for ever (a message that re-sends itself at once).
      if (!next.periodic && ++steps > maxSteps) throw this.runaway('advance', maxSteps, from);
      this.fire(next);
      await this.idle();
    }
    this.current = to;
    await this.idle();
    return this.entries.slice(from);
  }

  /**
   * Manual clock: runs until nothing is pending but periodic timers (crons): delayed messages, redeliveries after a
   * visibility timeout, retries; time jumps to each one's due time. Returns what ran. Bounded: after `maxSteps`
   * timers it throws FW_ERR_DEV_CLOCK_RUNAWAY naming the unit that ran most.
   */
  async drain(maxSteps = 10_000): Promise<DevClockTraceEntry[]> {
    this.requireManual('drain');
    const from = this.entries.length;
    await this.idle();
    for (let step = 0; ; step++) {
      const next = this.nextTimer((t) => !t.periodic);
      if (!next) break;
      if (step >= maxSteps) throw this.runaway('drain', maxSteps, from);
      this.fire(next);
      await this.idle();
    }
    return this.entries.slice(from);
  }

  /** The error of a call that hit its cap, naming the unit with the most runs since the call began. */
  private runaway(what: 'advance' | 'drain', maxSteps: number, from: number): DevServerError {
    const counts = new Map<string, { runs: number; failed: number; error?: string }>();
    for (const entry of this.entries.slice(from)) {
      const key = `${entry.kind} ${entry.id}`;
      const count = counts.get(key) ?? { runs: 0, failed: 0 };
      count.runs++;
      if (!entry.ok) {
        count.failed++;
        count.error = entry.error;
      }
      counts.set(key, count);
    }
    const top = [...counts.entries()].sort((a, b) => b[1].runs - a[1].runs)[0];
    const unit = top ? `${top[0]} ran most (${top[1].runs} runs, ${top[1].failed} failed${top[1].error ? `, last: ${top[1].error}` : ''})` : 'no unit finished a run';
    return new DevServerError(
      'FW_ERR_DEV_CLOCK_RUNAWAY',
      `${what}: still pending after ${maxSteps} retries, redeliveries and delayed messages; ${unit}. Work that never ends: a message re-sent or redelivered for ever (give its queue a dead-letter queue, maxReceiveCount), or a unit scheduling itself again at once; or ${what === 'advance' ? 'advance a shorter window' : 'advance the clock in steps instead of drain()'}.`,
    );
  }

  /** Whether a non-periodic timer is waiting (a delayed message, a redelivery, a retry). */
  get pending(): number {
    return this.timers.filter((t) => !t.cancelled && !t.periodic).length;
  }

  /** Resolves when no held work is running (manual clock; a real clock is always idle). */
  async idle(): Promise<void> {
    // Two turns with nothing held: work that ended on this turn has had the chance to start its next step.
    for (let quiet = 0; quiet < 2; ) {
      if (this.holds > 0) {
        await new Promise<void>((resolve) => this.idleWaiters.push(resolve));
        quiet = 0;
      } else {
        await new Promise((resolve) => setImmediate(resolve));
        quiet = this.holds === 0 ? quiet + 1 : 0;
      }
    }
  }

  private fire(timer: ManualTimer): void {
    this.timers.splice(this.timers.indexOf(timer), 1);
    if (timer.at > this.current) this.current = timer.at;
    this.hold();
    try {
      timer.run();
    } finally {
      this.unhold();
    }
  }

  private nextTimer(accept: (timer: ManualTimer) => boolean): ManualTimer | undefined {
    for (let i = this.timers.length - 1; i >= 0; i--) if (this.timers[i]!.cancelled) this.timers.splice(i, 1);
    let next: ManualTimer | undefined;
    for (const timer of this.timers) if (accept(timer) && (!next || timer.at < next.at)) next = timer;
    return next;
  }

  private unhold(): void {
    this.holds--;
    if (this.holds === 0) for (const wake of this.idleWaiters.splice(0)) wake();
  }

  private requireManual(what: string): void {
    if (!this.manual) throw new Error(`${what}: fw dev runs on the machine's clock; start it with clock: 'manual' (as @framework/testing does) to move time`);
  }
}

/** `setTimeout` at an absolute time, re-armed in steps past setTimeout's limit and when it fires early. */
function realTimer(at: number, run: () => void, ref: boolean): DevTimer {
  let handle: NodeJS.Timeout | undefined;
  let cancelled = false;
  const arm = () => {
    handle = setTimeout(() => {
      if (cancelled) return;
      if (at > Date.now()) return arm();
      run();
    }, Math.min(Math.max(0, at - Date.now()), MAX_TIMER_MS));
    if (!ref) handle.unref();
  };
  arm();
  return {
    cancel: () => {
      cancelled = true;
      clearTimeout(handle);
    },
  };
}
