import type { DevClockTraceEntry } from '@framework/cli/dev';
import type { Identity } from '../auth/identity.js';
import type { Duration } from '../duration.js';
import type { BucketObserver, QueueObserver } from '../observe/local-observers.js';
import type { TestDatabase } from '../data/test-database.js';

/** One unit an engine ran while the clock moved (a cron run, a queue batch, a retry). */
export type TraceEntry = DevClockTraceEntry;

/** The engines' time, which only the test moves (crons never fire on their own in a test). */
export interface TestClock {
  /** The engines' current time. */
  now(): Date;
  /**
   * Moves time forward: fires every cron due in the window (each at its own time), delivers the queue messages that
   * become due, runs redeliveries and retries that fall in it; resolves once that work is done, with what ran
   * (failed attempts included). A retry due after the window stays pending; work that never ends throws
   * FW_ERR_DEV_CLOCK_RUNAWAY naming the unit, after 10,000 retries, redeliveries and delayed messages.
   */
  advance(duration: Duration): Promise<TraceEntry[]>;
}

/** The result of `app.invoke`: the function's return value, or its error. */
export type InvokeResult<T = unknown> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly errorType: string; readonly errorMessage: string };

/** One line a function printed (the runtime logger's JSON lines are parsed). */
export interface CapturedLog {
  readonly stream: 'stdout' | 'stderr';
  readonly line: string;
  /** The parsed line when it is JSON. */
  readonly entry?: Readonly<Record<string, unknown>>;
}

/** The app under test: its URL, clients per identity, and (locally) its engines. */
export interface TestApp<C> {
  readonly url: string;
  /** true when started by `startApp()` (fw dev in this process); false for `startApp({ url })`. */
  readonly local: boolean;
  /** A client without a token (the same as `anonymous`). */
  readonly client: C;
  readonly anonymous: C;
  /** A client whose calls carry a user token with these roles or scopes, minted by the local issuer. */
  as(identity: Identity): C;
  /** A client whose calls carry the machine token of this app client (client credentials). */
  asMachine(client: string): C;
  /** Local only. */
  readonly clock: TestClock;
  /** Local only: runs until nothing is pending but crons (messages, delayed ones, redeliveries, retries); returns what ran. */
  drain(): Promise<TraceEntry[]>;
  /** Local only: the queues by id. */
  readonly queues: Readonly<Record<string, QueueObserver>>;
  /** Local only: the buckets by id. */
  readonly storage: Readonly<Record<string, BucketObserver>>;
  /** Local only: invokes a standalone function (`src/functions/`) with a payload, as Lambda's Invoke API. */
  invoke<T = unknown>(functionId: string, payload?: unknown): Promise<InvokeResult<T>>;
  /** Local only: a database by id (default: the only one), to query and seed. */
  db(id?: string): TestDatabase;
  /**
   * Local only: puts every database back as the migrations left it and purges every queue's pending messages (dead
   * letters stay); call it in `beforeEach`.
   */
  resetData(): Promise<void>;
  /** Local only: the lines functions printed while serving this request id (the `x-request-id`/`apigw-requestid` of a response). */
  logs(requestId?: string): CapturedLog[];
  /** Stops the server and every engine, and removes the test's data folder. Safe to call twice. */
  stop(): Promise<void>;
}
