import type { AppDefinition, FunctionUnit, OutputIntent, OutputValues } from '@framework/core';
import type { FastifyPluginAsync } from 'fastify';
import type { DevClock } from '../clock/index.js';

/**
 * The contract between `fw dev` and its local engines: one file per intent under `dev/engines/` (`queues.ts`,
 * `databases.ts`, `storage.ts`, ...), each exporting one or more `EngineFactory` values that `engines/index.ts`
 * registers. The dev server picks one factory per intent the app uses (order native → embedded unless
 * the user names one), starts it, puts the outputs it returns into every function's environment, registers its
 * Fastify plugin (its own `/_dev/<intent>/...` routes) and stops it on shutdown.
 *
 * Keep this file stable: other engineers' engines are written against it.
 */

/** Where an engine runs: a server binary on PATH, or inside `fw dev`. */
export type EngineKind = 'native' | 'embedded';

/**
 * The intents that have a local engine (core's output intents plus the ones without outputs; `notifications`: the
 * local inbox of apps using `@framework/notify`; `billing`: the local payment provider of apps declaring `billing`).
 */
export type EngineIntent = OutputIntent | 'schedules' | 'notifications' | 'billing';

/** What a function invocation came to (the same for every kind of unit). */
export type InvokeOutcome =
  | { readonly ok: true; readonly value: unknown }
  | {
      readonly ok: false;
      /** `timeout`: ran past the unit's timeout; `crash`: the worker died (process.exit, import error); `error`: threw. */
      readonly reason: 'error' | 'timeout' | 'crash';
      /** Error name (`TypeError`, `Sandbox.Timedout`, ...), as Lambda reports `errorType`. */
      readonly errorType: string;
      readonly errorMessage: string;
    };

/** Options of one invocation. */
export interface InvokeOptions {
  /** Request id handed to the function as `context.awsRequestId`. @default - a new UUID */
  readonly requestId?: string;
  /**
   * The caller brought the code up to date itself (`DevContext.fresh`, once per event-loop turn, as for HTTP
   * requests), so `DevContext.invoke` skips its full check of every handler. @default false
   */
  readonly checked?: boolean;
}

/** Where the dev server logs; engines write through it so output stays in one format. */
export interface DevLogger {
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

/** What the dev server gives an engine when starting it. */
export interface DevContext {
  /** The project folder (where `fw.config.ts` is). */
  readonly rootDir: string;
  /** `<rootDir>/.fw`: engines keep their data under `<rootDir>/.fw/<intent>/`. */
  readonly dataDir: string;
  /** The dev server's base URL, e.g. `http://127.0.0.1:3000` (the value of `FW_DEV_ENDPOINT`). */
  readonly baseUrl: string;
  /** The address the dev server binds; engines that listen bind the same one. */
  readonly host: string;
  readonly log: DevLogger;
  /** Runs a unit of the app (queue consumer, cron, function) in its worker and reports the outcome; never throws. */
  invoke(unit: FunctionUnit, event: unknown, options?: InvokeOptions): Promise<InvokeOutcome>;
  /** The app model as it is now (it is rebuilt when files are added or removed); engines read units from here. */
  currentApp(): AppDefinition;
  /**
   * Brings the app model (and, given a handler file, that handler) up to date with the files on disk, as before an
   * HTTP request: checked once per event-loop turn; undefined when nothing changed, else settles once reloaded. For
   * engines that dispatch client requests (WebSocket messages): call it before reading `currentApp()`, then invoke
   * with `{ checked: true }`. @default - none: `invoke` checks every handler each time
   */
  fresh?(file?: string): Promise<void> | undefined;
  /** A free TCP port on `host`. */
  freePort(): Promise<number>;
  /**
   * The time engines schedule by (crons, delays, visibility timeouts, retries): the machine's clock under `fw dev`,
   * one the test moves under `@framework/testing`. @default - the machine's clock
   */
  readonly clock?: DevClock;
}

/** The outputs an engine of intent `I` serves: every output core's `INTENT_OUTPUTS` names for that kind, by intent id. */
export type ServedOutputs<I extends EngineIntent> = I extends OutputIntent ? Readonly<Record<string, OutputValues<I>>> : Readonly<Record<string, never>>;

/** What a started engine hands back (`EngineStart<'databases'>` for a database engine: its outputs are typed). */
export interface EngineStart<I extends EngineIntent = EngineIntent> {
  /**
   * Values of the intent outputs this engine serves: intent id → output name → value, e.g.
   * `{ main: { host: '127.0.0.1', port: '54321', name: 'main', secretArn: 'local' } }`. Output names are core's
   * (`INTENT_OUTPUTS`), the ones `AppDefinition.environment` references; core's `resolveEnvironment` fills them in.
   */
  readonly outputs: ServedOutputs<I>;
  /** Routes of this engine (under `/_dev/<intent>/`), registered on the dev server before it listens. */
  readonly plugin?: FastifyPluginAsync;
  /** Lines for the start-up table, e.g. `databases  main  embedded (PGlite) 127.0.0.1:54321/main`. */
  readonly summary?: readonly string[];
  /**
   * For an engine that finishes starting in the background (a database: server up, migrations applied): resolves
   * when it serves. The dev server lets no request reach a handler before it settles (it waits for it before
   * listening, at most `ENGINE_READY_TIMEOUT_MS`, then answers 503 naming the engine until it is ready). Failures
   * the engine can live with (a failing migration) are logged by the engine and resolve it; a rejection is logged.
   * @default - ready when `start` returns
   */
  readonly ready?: Promise<void>;
  /**
   * For an engine that starts behind a placeholder port (a database: connections wait on a port of the dev server
   * until the server behind it is up): the outputs functions get once `ready` settled, naming the server's own
   * port, so their traffic no longer passes through the dev server's main thread. The state file and the start-up
   * table keep `outputs` (the placeholder forwards for as long as `fw dev` runs). Undefined: keep `outputs`.
   * @default - `outputs`
   */
  readonly readyOutputs?: Promise<Readonly<Record<string, Readonly<Record<string, string>>>> | undefined>;
  /**
   * Services handlers call from their worker thread (no network port), by name: the runtime reaches them through
   * `DevWorkerServiceCall` (core). Requests and answers are structured-cloned; a rejection reaches the caller as an
   * error with its message.
   * @default - none
   */
  readonly workerServices?: Readonly<Record<string, (request: unknown) => Promise<unknown>>>;
  /**
   * Dev-only variables added to every function's environment (names from core's `ENV`, listed in `DEV_ONLY_ENV`),
   * e.g. the storage engine's per-run client secret. @default - none
   */
  readonly env?: Readonly<Record<string, string>>;
}

/** A running engine for one intent. */
export interface DevEngine {
  readonly intent: EngineIntent;
  readonly kind: EngineKind;
  /** Starts it for every item of its intent in `app`. Throw a `FrameworkError` with a fix when it cannot start. */
  start(app: AppDefinition, context: DevContext): Promise<EngineStart>;
  /** Stops it and releases ports and files; called once, also after a failed start. */
  stop(): Promise<void>;
}

/** Registered once per engine; the dev server creates an engine from it for each run. */
export interface EngineFactory {
  readonly intent: EngineIntent;
  readonly kind: EngineKind;
  /** Short human text shown in the start-up table, e.g. `PGlite`, `postgres on PATH`. */
  readonly label: string;
  /** Whether it can run on this machine for this app (binary on PATH). Embedded: always true. */
  isAvailable(app: AppDefinition): Promise<boolean>;
  /** Whether the app uses this intent at all (no database intents: no database engine). */
  isNeeded(app: AppDefinition): boolean;
  /** A promise for an engine whose module loads on first use (only an app using the intent pays for its imports). */
  create(): DevEngine | Promise<DevEngine>;
}
