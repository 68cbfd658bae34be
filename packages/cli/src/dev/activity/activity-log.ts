import type { FunctionUnit } from '@framework/core';
import type { InvokeOutcome } from '../engines/engine.js';

/** Where `fw dev` prints its line per request, queue batch and cron run (`fw dev --quiet` passes none). */
export interface ActivityLogOptions {
  readonly write: (line: string) => void;
  /** ANSI colours (a terminal). @default false */
  readonly colour?: boolean;
}

/** One request the dev server answered. */
export interface RequestActivity {
  /** When it arrived: a date, or milliseconds since the epoch (`Date.now()`, no `Date` to build per request). */
  readonly time: Date | number;
  readonly method: string;
  /** Without the query string (it may carry secrets, and the path is what names the route). */
  readonly path: string;
  readonly status: number;
  readonly durationMs: number;
  /** The function that ran, if one did. */
  readonly functionName?: string;
  readonly requestId: string;
}

const STYLE = { dim: 2, red: 31, green: 32, yellow: 33, cyan: 36 } as const;

/**
 * The terminal's account of what ran: one line per request (time, method, path, status, duration, function,
 * request id), per queue batch and per cron run (succeeded, failed, retried). Colours only in a terminal.
 */
export class ActivityLog {
  constructor(private readonly options: ActivityLogOptions) {}

  private paint(style: keyof typeof STYLE, text: string): string {
    return this.options.colour ? `\u001b[${STYLE[style]}m${text}\u001b[0m` : text;
  }

  request(r: RequestActivity): void {
    const status = this.paint(r.status >= 500 ? 'red' : r.status >= 400 ? 'yellow' : r.status >= 300 ? 'cyan' : 'green', String(r.status));
    this.options.write(`${this.paint('dim', clock(r.time))} ${r.method} ${r.path} ${status} ${duration(r.durationMs)} ${r.functionName ?? '-'} ${this.paint('dim', r.requestId)}`);
  }

  /** A queue consumer's batch or a cron's run, from the outcome its invocation had. Other units are requests. */
  unitRun(unit: FunctionUnit, event: unknown, outcome: InvokeOutcome, durationMs: number, time: Date): void {
    if (unit.kind !== 'queue' && unit.kind !== 'cron') return;
    const what = unit.kind === 'queue' ? `queue ${unit.id} batch of ${recordCount(event)}` : `cron ${unit.id} run`;
    let result: string;
    if (!outcome.ok) result = this.paint('red', unit.kind === 'queue' ? `failed (${outcome.errorType}), retried` : `failed (${outcome.errorType})`);
    else {
      const failed = unit.kind === 'queue' ? reportedFailures(outcome.value) : 0;
      result = failed ? this.paint('yellow', `${failed} failed, retried`) : this.paint('green', 'succeeded');
    }
    this.options.write(`${this.paint('dim', clock(time))} ${what} ${result} ${duration(durationMs)} ${unit.functionName}`);
  }
}

/**
 * The UTC time of day, `10:31:17.042`, by arithmetic: `toISOString()` costs about 1.3 µs, this about 0.2, once for
 * every request the dev server answers.
 */
function clock(time: Date | number): string {
  const ms = Math.floor(typeof time === 'number' ? time : time.getTime()) % 86_400_000;
  const milli = ms % 1000;
  return `${pad2(Math.floor(ms / 3_600_000))}:${pad2(Math.floor(ms / 60_000) % 60)}:${pad2(Math.floor(ms / 1000) % 60)}.${milli < 10 ? `00${milli}` : milli < 100 ? `0${milli}` : milli}`;
}

function pad2(n: number): string {
  return n < 10 ? `0${n}` : String(n);
}

function duration(ms: number): string {
  return `${ms < 10 ? ms.toFixed(1) : Math.round(ms)} ms`;
}

function recordCount(event: unknown): number {
  const records = (event as { Records?: unknown } | null)?.Records;
  return Array.isArray(records) ? records.length : 0;
}

/** How many messages of a batch the consumer reported failed (`batchItemFailures`). */
function reportedFailures(value: unknown): number {
  const failures = (value as { batchItemFailures?: unknown } | null)?.batchItemFailures;
  return Array.isArray(failures) ? failures.length : 0;
}
