import { randomUUID } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Worker } from 'node:worker_threads';
import type { FunctionUnit } from '@framework/core';
import type { DevLogger, InvokeOptions, InvokeOutcome } from '../engines/engine.js';
import { OUT_OF_MEMORY_ERROR_TYPE, outOfMemoryMessage, workerResourceLimits } from '../limits/memory-limits.js';
import { EventText } from './event-text.js';
import type { HandlerBundler } from './handler-bundler.js';
import type { FromWorker, LoadedHandlerInfo, ToWorker } from './worker-protocol.js';
import { relayWorkerOutput } from './worker-output.js';
import { LoadTimeLines } from './load-time-lines.js';
import { FUNCTION_WORKER_URL, workerExecArgv } from './worker-entry.js';
import { recordFirstThread, type EarlyThread } from './early-thread.js';

const DEBUG = process.env.FW_DEV_DEBUG === '1';
function debug(message: string): void {
  if (DEBUG) process.stderr.write(`[fw:debug] ${message}\n`);
}

const SPARES = 2;
/** Lambda's limit on a function's init phase; a handler whose import takes longer is ended (never waited on forever). */
export const INIT_TIMEOUT_MS = 10_000;
/** How long a thread may take to boot (start Node's worker, preload at most PRELOAD_LIMIT_MS) before its load fails. */
const BOOT_LIMIT_MS = 60_000;

/** Options of `FunctionHost`. */
export interface FunctionHostOptions {
  /** How long a handler may take to load (its import) before its instance is ended. @default INIT_TIMEOUT_MS (10 s) */
  readonly initTimeoutMs?: number;
  /** Where the functions' output goes. @default - this process's stdout and stderr */
  readonly output?: FunctionOutput;
  /**
   * Sees every line a function thread prints, with the request id of the invocation the thread ran last (the dev
   * console's per-request log lines).
   */
  readonly onLogLine?: LogLineTap;
  /**
   * Told each handler file's latest build and load outcome: a problem, or undefined once it builds and loads (the
   * dev console's Errors tab).
   */
  readonly onHandlerProblem?: (file: string, problem: { kind: 'compile' | 'load'; message: string } | undefined) => void;
  /**
   * Spare threads load every package the handlers import before a function takes them (its first call then skips
   * those imports). Off, a spare boots bare and a function imports only what its handler needs: less CPU in all, and
   * a first call that does not wait for packages it never uses. @default true
   */
  readonly preloadPackages?: boolean;
  /**
   * What replacing a taken spare waits for besides the load it stands in for (`fw dev`: its first request answered):
   * two threads booting and preloading beside the first invocation would take the CPU it needs. @default - nothing
   */
  readonly sparesAfter?: () => Promise<void>;
  /**
   * A thread started before the host (`startEarlyThread`, `fw dev`'s start): the first spare, when its memorySize is
   * the spares' (else it is ended). The host also notes the spares' memorySize for the next run's early thread.
   */
  readonly firstThread?: EarlyThread;
  /**
   * What the first spare's preload waits for (`fw dev`: listening, then its first request answered or a moment with
   * none). The thread boots bare at once and imports the packages only then: on a 2-core machine that import (for the
   * example's, 0.3 to 0.4 s of CPU on a slow host) otherwise runs beside `fw dev`'s own start-up and the first
   * request's load, which need the CPU first. @default - nothing: the first spare preloads as it boots
   */
  readonly firstPreloadAfter?: () => Promise<void>;
}

/** A line a function thread printed, the stream it went to and the request id of the thread's latest invocation. */
export type LogLineTap = (line: string, stream: 'stdout' | 'stderr', lastRequestId: string | undefined) => void;

/** The streams the functions' threads print to (a test harness captures them). */
export interface FunctionOutput {
  readonly stdout: NodeJS.WritableStream;
  readonly stderr: NodeJS.WritableStream;
}

/** Options of `FunctionHost.rebuild`. */
export interface RebuildOptions {
  /**
   * Compile only the files whose inputs changed since their last build (and files never built), keeping the other
   * bundles; without it every file is compiled and files no longer listed are dropped. @default false
   */
  readonly changedOnly?: boolean;
  /**
   * Take the previous run's compiled handlers whose files did not change since (`HandlerBundler.reuseLastRun`), and
   * compile only the others: `fw dev`'s start. @default false
   */
  readonly reuseLastRun?: boolean;
}

/** How often a load is retried when its instance was replaced (a rebuild) before it finished loading. */
const LOAD_ATTEMPTS = 3;

export { workerExecArgv } from './worker-entry.js';

/** A loaded handler, or why it could not load. */
export type LoadOutcome =
  | { readonly ok: true; readonly info: LoadedHandlerInfo }
  /** `timedOut`: the import ran past INIT_TIMEOUT_MS (answered 504, as a timeout). */
  | { readonly ok: false; readonly errorType: string; readonly errorMessage: string; readonly timedOut?: boolean };

interface Pending {
  resolve(outcome: InvokeOutcome): void;
  timer: NodeJS.Timeout;
}

/** A service of the dev server that handlers call from their worker (see `FunctionHost.provide`). */
export type WorkerService = (request: unknown) => Promise<unknown>;

/** Where every thread of a host prints: the streams, the console's tap, and the load-time lines already shown. */
interface ThreadOutput {
  readonly output: FunctionOutput;
  readonly onLogLine?: LogLineTap;
  readonly loadTimeLines: LoadTimeLines;
}

/** A booted worker thread, not yet given a handler; its heap is capped for functions of `memorySize` MB. */
class WorkerHandle {
  readonly worker: Worker;
  readonly booted: Promise<void>;
  private listener?: (message: FromWorker) => void;
  /** The request id of the invocation sent last (a plain `console.log` line carries none). */
  lastRequestId?: string;
  /** The function whose handler it was given; undefined while it is a spare. */
  functionName?: string;

  /** `early`: a thread started before (`startEarlyThread`), given its environment and preload now. */
  constructor(preload: string | undefined, env: Readonly<Record<string, string>>, readonly memorySize: number, services: ReadonlyMap<string, WorkerService>, threadOutput: ThreadOutput, early?: Worker) {
    this.worker = early ?? new Worker(FUNCTION_WORKER_URL, { workerData: { preload }, env: { ...env }, execArgv: workerExecArgv(), resourceLimits: workerResourceLimits(memorySize), stdout: true, stderr: true });
    if (early) early.postMessage({ type: 'preload', env: { ...env }, ...(preload ? { file: preload } : {}) } satisfies ToWorker);
    const { output, onLogLine, loadTimeLines } = threadOutput;
    const show = (line: string) => loadTimeLines.show(line, this);
    relayWorkerOutput(this.worker.stdout, output.stdout, { tap: onLogLine && ((line) => onLogLine(line, 'stdout', this.lastRequestId)), show });
    relayWorkerOutput(this.worker.stderr, output.stderr, { tap: onLogLine && ((line) => onLogLine(line, 'stderr', this.lastRequestId)), show });
    let booted!: () => void;
    this.booted = new Promise((resolve, reject) => {
      booted = resolve;
      this.worker.once('error', reject);
      this.worker.once('exit', () => reject(new Error('worker exited while booting')));
    });
    this.booted.catch(() => undefined);
    // The boot signal is handled here, whoever listens for the rest (a spare may be taken while still booting).
    this.worker.on('message', (message: FromWorker) => {
      if (message.type === 'booted') booted();
      else if (message.type === 'service-call') this.serve(services, message);
      else this.listener?.(message);
    });
    // A spare must not keep `fw dev` alive on its own.
    this.worker.unref();
  }

  /** Runs a handler's call to a dev server service; the answer is dropped if the thread ended meanwhile. */
  private serve(services: ReadonlyMap<string, WorkerService>, message: Extract<FromWorker, { type: 'service-call' }>): void {
    const service = services.get(message.service);
    const answer = service ? service(message.request) : Promise.reject(new Error(`fw dev has no service "${message.service}"`));
    void answer.then(
      (value) => this.reply({ type: 'service-reply', id: message.id, ok: true, value }),
      (error: unknown) => this.reply({ type: 'service-reply', id: message.id, ok: false, errorMessage: error instanceof Error ? error.message : String(error) }),
    );
  }

  private reply(message: ToWorker): void {
    try {
      this.worker.postMessage(message);
    } catch {
      // The thread was terminated while the service worked (a timeout, an edit): nobody is waiting.
    }
  }

  /** Imports `file`'s packages now (a thread that booted bare); its second `booted` is not waited for. */
  preload(file: string): void {
    this.post({ type: 'preload', file });
  }

  onMessage(listener: (message: FromWorker) => void): void {
    this.listener = listener;
  }

  post(message: ToWorker): void {
    this.worker.postMessage(message);
  }
}

/** One instance of a function: a worker with the handler loaded, for one build generation. */
class Instance {
  readonly pending = new Map<number, Pending>();
  readonly ready: Promise<LoadOutcome>;
  loadOutcome?: LoadOutcome;
  dead = false;
  /** Ended by the host (a rebuild, a stop) before it finished loading: its load failure is not the handler's. */
  superseded = false;
  lastUsed = Date.now();

  constructor(
    readonly handle: WorkerHandle,
    readonly generation: number,
    unit: FunctionUnit,
    bundle: string,
    env: Readonly<Record<string, string>>,
    private readonly onDeath: (instance: Instance) => void,
    log: DevLogger,
    initTimeoutMs: number,
  ) {
    handle.functionName = unit.functionName;
    let settle!: (outcome: LoadOutcome) => void;
    this.ready = new Promise((resolve) => (settle = resolve));
    // Every load ends: loaded, failed, exited, or past Lambda's init limit (a hung import must not hang requests).
    // The limit counts from the moment the handler's load is sent, as Lambda's counts the function's own init: the
    // thread's boot and its package preload are fw dev's head start (a thread per instance is not Lambda's sandbox),
    // and on a loaded machine they alone can take seconds. A thread that never boots is ended by BOOT_LIMIT_MS.
    let initTimer: NodeJS.Timeout | undefined;
    const timeOut = (message: string) => {
      log.error(`${unit.id}: ${unit.file} ${message}; instance replaced`);
      done({ ok: false, errorType: 'Runtime.InitTimeout', errorMessage: `the handler ${message.replace(/ \(.*\)$/, '')}`, timedOut: true });
      this.dead = true;
      void handle.worker.terminate();
    };
    const bootTimer = setTimeout(() => timeOut(`did not start: its thread did not boot within ${BOOT_LIMIT_MS / 1000} s`), BOOT_LIMIT_MS);
    const startInitTimer = () => {
      clearTimeout(bootTimer);
      if (this.loadOutcome) return;
      initTimer = setTimeout(() => timeOut(`did not load within ${initTimeoutMs / 1000} s (a top-level await or import that never settles?)`), initTimeoutMs);
    };
    const done = (outcome: LoadOutcome) => {
      clearTimeout(bootTimer);
      clearTimeout(initTimer);
      if (!this.loadOutcome) {
        this.loadOutcome = outcome;
        settle(outcome);
      }
    };
    // Set when the thread ran out of memory (Node ended it past its heap limits, or it reported more memory held than
    // the function's memorySize): its exit is then Lambda's Runtime.OutOfMemory.
    let outOfMemory: { usedBytes?: number } | undefined;
    handle.onMessage((message) => {
      if (message.type === 'ready') done({ ok: true, info: message.info });
      else if (message.type === 'out-of-memory') outOfMemory = { usedBytes: message.usedBytes };
      else if (message.type === 'load-error') {
        log.error(`${unit.id}: failed to load ${unit.file}: ${message.stack ?? `${message.errorType}: ${message.errorMessage}`}`);
        done({ ok: false, errorType: message.errorType, errorMessage: message.errorMessage });
        // As Lambda re-runs a failed init on the next invocation: the next request loads afresh (a package's lib/
        // being rewritten while it was imported must not fail this function until the next edit).
        this.dead = true;
        void handle.worker.terminate();
      } else if (message.type === 'result') {
        const pending = this.pending.get(message.id);
        if (!pending) return;
        this.pending.delete(message.id);
        clearTimeout(pending.timer);
        if (this.retiring && this.pending.size === 0) void handle.worker.terminate();
        if (message.ok) {
          pending.resolve({ ok: true, value: 'json' in message ? (JSON.parse(message.json) as unknown) : message.value });
        } else {
          log.error(`${unit.id}: ${message.stack ?? `${message.errorType}: ${message.errorMessage}`}`);
          pending.resolve({ ok: false, reason: 'error', errorType: message.errorType, errorMessage: message.errorMessage });
        }
      }
    });
    let lastError: Error | undefined;
    handle.worker.on('error', (error) => {
      if ((error as { code?: string }).code === 'ERR_WORKER_OUT_OF_MEMORY') {
        outOfMemory = {};
        return;
      }
      lastError = error;
      log.error(`${unit.id}: uncaught error, instance replaced: ${error.stack ?? error.message}`);
    });
    handle.worker.on('exit', (code) => {
      this.dead = true;
      if (outOfMemory) log.error(outOfMemoryMessage(unit.id, unit.memorySize, outOfMemory.usedBytes));
      const errorType = outOfMemory ? OUT_OF_MEMORY_ERROR_TYPE : lastError ? lastError.name : 'Runtime.ExitError';
      const errorMessage = outOfMemory
        ? `Runtime exited with error: out of memory (memorySize ${unit.memorySize} MB)`
        : lastError
          ? `${lastError.name}: ${lastError.message}`
          : `the function exited with code ${code} (process.exit) before it answered`;
      done({ ok: false, errorType: outOfMemory ? OUT_OF_MEMORY_ERROR_TYPE : 'Runtime.ExitError', errorMessage });
      for (const [id, pending] of this.pending) {
        clearTimeout(pending.timer);
        this.pending.delete(id);
        pending.resolve({ ok: false, reason: 'crash', errorType, errorMessage });
      }
      this.onDeath(this);
    });
    void handle.booted.then(
      () => {
        if (this.dead) return;
        startInitTimer();
        handle.post({ type: 'load', bundle, env, functionName: unit.functionName, memorySize: unit.memorySize, timeout: unit.timeout });
      },
      () => undefined,
    );
    handle.worker.ref();
  }

  async kill(): Promise<void> {
    if (!this.loadOutcome) this.superseded = true;
    this.dead = true;
    await this.handle.worker.terminate();
  }

  /** Takes no new invocations; ends once the ones in flight answered (or time out). */
  retire(): void {
    if (!this.loadOutcome) this.superseded = true;
    this.dead = true;
    this.retiring = true;
    if (this.pending.size === 0) void this.handle.worker.terminate();
  }

  retiring = false;
}

/**
 * Runs the app's functions in worker threads: one instance per function, created on first use, replaced when the
 * handlers are rebuilt (any change under `src/`), when it crashes and when it runs past its timeout. A booted spare
 * thread is kept so replacing an instance costs an import, not a thread start. Instances serve concurrent requests
 * (unlike Lambda, which would start more instances); a timeout therefore also ends the other requests in flight on
 * that instance.
 */
export class FunctionHost {
  private readonly instances = new Map<string, Instance>();
  /** Booted threads waiting for a handler; two, so back-to-back edits still find one ready. */
  private spares: WorkerHandle[] = [];
  private generation = 0;
  private building: Promise<void> = Promise.resolve();
  private buildsQueued = 0;
  /** A coalesced build compiles every file if any of the calls it stands for asked for that. */
  private fullBuildQueued = false;
  private nextId = 1;
  private stopped = false;
  /** The last background load queued (`loadInBackground`). */
  private backgroundLoads: Promise<unknown> = Promise.resolve();

  private preloadFile?: string;
  private preloadText = '';
  /** Whether the first spare thread was started (see `startSpares`). */
  private startedSpares = false;
  /** The memorySize spares are started for: the one most functions have (a worker's heap limit is fixed at start). */
  private spareMemorySize = 1024;
  /** Services of the dev server that handlers call from their thread, by name. */
  private readonly services = new Map<string, WorkerService>();
  /** The early thread not adopted yet (`FunctionHostOptions.firstThread`). */
  private firstThread?: EarlyThread;
  /** Where the threads print; a line threads write while they load shows once per run, again only from the function that showed it (LoadTimeLines). */
  private readonly threadOutput: ThreadOutput;

  constructor(
    private readonly bundler: HandlerBundler,
    /** The variables every function gets (spare threads start with them). */
    private readonly baseEnvironment: () => Readonly<Record<string, string>>,
    /** The whole environment of one function. */
    private readonly environment: (unit: FunctionUnit) => Readonly<Record<string, string>>,
    private readonly log: DevLogger,
    private readonly options: FunctionHostOptions = {},
  ) {
    this.firstThread = options.firstThread;
    this.threadOutput = { output: options.output ?? process, onLogLine: options.onLogLine, loadTimeLines: new LoadTimeLines() };
  }

  /** Makes `service` callable from every function's thread (the runtime's `DevWorkerServiceCall`). */
  provide(name: string, service: WorkerService): void {
    this.services.set(name, service);
  }

  /** Rewrites the preload module after a build; a spare started with another package list is replaced. */
  private refreshPreload(): void {
    if (this.options.preloadPackages === false) return;
    const text = this.bundler
      .externals()
      .map((spec) => `import(${JSON.stringify(spec)}).catch(() => undefined);`)
      .join('\n');
    if (text === this.preloadText && this.spares.length) return;
    this.preloadText = text;
    const file = this.preloadPath();
    const content = `// Packages the handlers import, loaded by spare worker threads ahead of time.\nawait Promise.all([\n${text.split('\n').map((l) => l.replace(/;$/, ',')).join('\n')}\n]);\n`;
    // The spares started from the previous run's preload (see `startSpares`) load the same packages: keep them.
    if (this.preloadFile === file && this.spares.length && readText(file) === content) return;
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, content);
    this.preloadFile = file;
    const old = this.spares;
    this.spares = [];
    this.fillSpares();
    for (const spare of old) void spare.worker.terminate();
  }

  private preloadPath(): string {
    return path.join(this.bundler.outputDir, '_preload.mjs');
  }

  /**
   * Starts the spare threads now, before the first build ends, with the previous run's preload when there is one:
   * the first request then finds a booted thread instead of waiting for one. A build that changes the preload
   * replaces them.
   */
  private startSpares(): void {
    if (this.spares.length || this.stopped || this.startedSpares) return;
    this.startedSpares = true;
    if (this.preloadFile === undefined && readText(this.preloadPath()) !== undefined) this.preloadFile = this.preloadPath();
    // One thread at first, importing only the packages the most handlers import (known from the previous run's
    // builds; none on a first run): the first request's load then most likely costs its own bundle, not the runtime's
    // ~60 ms of imports, and no preload of every package competes with it for the CPU. The spares that preload every
    // package start once a handler is loaded (`instance`). With `firstPreloadAfter`, even that import waits: measured
    // on the example (its most imported package, @framework-pro/tenancy, pulls in pg and more), it took 0.3 to 0.4 s
    // of CPU from fw dev's start-up while the embedded database booted beside it.
    const early = this.takeFirstThread();
    recordFirstThread(this.bundler.outputDir, this.spareMemorySize);
    const preload = this.firstSparePreload();
    const after = preload === undefined ? undefined : this.options.firstPreloadAfter;
    const first = new WorkerHandle(after ? undefined : preload, this.baseEnvironment(), this.spareMemorySize, this.services, this.threadOutput, early);
    this.spares.push(first);
    // Only while it is still a spare: a function that took it imports what its handler needs by itself.
    if (after && preload !== undefined) {
      void after().then(() => {
        if (!this.stopped && this.spares.includes(first)) first.preload(preload);
      });
    }
  }

  /** The early thread, when its heap limits are the spares'; ended otherwise. Given once. */
  private takeFirstThread(): Worker | undefined {
    const early = this.firstThread;
    this.firstThread = undefined;
    if (!early) return undefined;
    if (early.memorySize === this.spareMemorySize) return early.worker;
    void early.worker.terminate();
    return undefined;
  }

  /** The first spare's preload module: the packages the most handlers import, or undefined when there are none. */
  private firstSparePreload(): string | undefined {
    if (this.options.preloadPackages === false) return undefined;
    const common = this.bundler.mostImportedExternals();
    if (common.length === 0) return undefined;
    const file = path.join(this.bundler.outputDir, '_preload-common.mjs');
    const content = `// The packages the most handlers import, loaded by the first spare thread of a run.\nawait Promise.all([\n${common.map((spec) => `  import(${JSON.stringify(spec)}).catch(() => undefined),`).join('\n')}\n]);\n`;
    try {
      if (readText(file) !== content) {
        fs.mkdirSync(path.dirname(file), { recursive: true });
        fs.writeFileSync(file, content);
      }
      return file;
    } catch {
      // Only a head start: the thread boots bare.
      return undefined;
    }
  }

  private fillSpares(): void {
    while (!this.stopped && this.spares.length < SPARES) this.spares.push(new WorkerHandle(this.sparePreload(), this.baseEnvironment(), this.spareMemorySize, this.services, this.threadOutput));
  }

  private sparePreload(): string | undefined {
    return this.options.preloadPackages === false ? undefined : this.preloadFile;
  }

  /**
   * Recompiles the given units' files (with `changedOnly`, those built from a changed file) and retires every
   * instance (the next request loads the new code).
   */
  rebuild(units: readonly FunctionUnit[], options: RebuildOptions = {}): Promise<void> {
    if (options.reuseLastRun) {
      this.bundler.reuseLastRun([...new Set(units.map((u) => u.file))]);
      return this.rebuild(units, { changedOnly: true });
    }
    this.buildsQueued++;
    if (!options.changedOnly) this.fullBuildQueued = true;
    const files = [...new Set(units.map((u) => u.file))];
    this.spareMemorySize = mostCommonMemorySize(units) ?? this.spareMemorySize;
    this.startSpares();
    this.building = this.building.then(async () => {
      this.buildsQueued--;
      // Coalesce: a burst of edits needs only the last build.
      if (this.buildsQueued > 0) return;
      const full = this.fullBuildQueued;
      this.fullBuildQueued = false;
      const built = full ? files : files.filter((file) => !this.bundler.result(file) || this.bundler.changedInput(file) !== undefined);
      if (!full && built.length === 0) return;
      const t0 = performance.now();
      try {
        await this.bundler.build(built, full);
      } catch (error) {
        // Keep serving the previous build; the chain of builds must never stay rejected.
        this.log.error(`compiling the handlers failed: ${(error as Error).stack ?? String(error)}`);
        return;
      }
      if (!this.stopped) this.refreshPreload();
      debug(`built ${built.length} files in ${(performance.now() - t0).toFixed(1)} ms`);
      for (const file of built) {
        const result = this.bundler.result(file);
        // A file read while being saved (truncated, not yet written) is built again by the next check: not an error.
        if (result && !result.ok && !this.bundler.changedInput(file)) this.log.error(`${file} does not compile:\n${result.message}`);
        if (result) this.options.onHandlerProblem?.(file, result.ok ? undefined : { kind: 'compile', message: `${file} does not compile:\n${result.message}` });
      }
      this.generation++;
      const retired = [...this.instances.values()];
      this.instances.clear();
      // Retired threads end in the background: the next request must not wait for them.
      for (const instance of retired) instance.retire();
      debug(`generation ${this.generation}: retired ${retired.length} instances at ${(performance.now() - t0).toFixed(1)} ms`);
    });
    return this.building;
  }

  /** Resolves once the builds queued so far are done (the compiled handlers and what they import are known). */
  async builds(): Promise<void> {
    await this.building;
  }

  /** Loads the unit's handler (if not loaded for this build) and says what it declared. */
  async load(unit: FunctionUnit): Promise<LoadOutcome> {
    return (await this.loaded(unit)).outcome;
  }

  /**
   * `load`, one at a time with the other background loads (the start-up's loading of every route, GET /_dev/functions):
   * each load is a thread importing its handler's whole module graph, seconds of CPU on a small machine, so twenty
   * started at once starved the requests and each other (past INIT_TIMEOUT_MS, failing loads that would have
   * succeeded). A request's own load never waits in this queue.
   */
  loadInBackground(unit: FunctionUnit): Promise<LoadOutcome> {
    // On a bare thread: it imports only what this handler needs, where a spare would first preload every package of
    // every handler (and then be replaced by another one preloading them again).
    const outcome = this.backgroundLoads.then(async () => (await this.loaded(unit, true)).outcome);
    this.backgroundLoads = outcome.catch(() => undefined);
    return outcome;
  }

  /**
   * The unit's instance once its handler loaded (or why not). An instance the host ended while it was still loading
   * (a rebuild retired it) says nothing about the handler: the load moves to a fresh instance instead of failing.
   */
  private async loaded(unit: FunctionUnit, bareThread = false): Promise<{ instance?: Instance; outcome: LoadOutcome }> {
    for (let attempt = 1; ; attempt++) {
      const instance = await this.instance(unit, bareThread);
      if (!(instance instanceof Instance)) return { outcome: instance };
      const outcome = instance.loadOutcome ?? (await instance.ready);
      if (!outcome.ok && instance.superseded && !this.stopped && attempt < LOAD_ATTEMPTS) {
        debug(`${unit.id}: instance replaced while loading; loading again`);
        continue;
      }
      if (!instance.superseded || outcome.ok) this.options.onHandlerProblem?.(unit.file, outcome.ok ? undefined : { kind: 'load', message: `${unit.file} failed to load: ${outcome.errorType}: ${outcome.errorMessage}` });
      return { instance, outcome };
    }
  }

  /** Invokes the unit once (`event` an object, or its JSON as an `EventText`); never throws. */
  async invoke(unit: FunctionUnit, event: unknown, options: InvokeOptions = {}): Promise<InvokeOutcome> {
    // The usual case, a loaded instance of this build, without the awaits of `loaded` (paid per WebSocket message).
    const warm = this.instances.get(unit.functionName);
    const { instance, outcome: loaded } =
      warm && !this.stopped && !warm.dead && warm.generation === this.generation && this.buildsQueued === 0 && warm.loadOutcome?.ok ? { instance: warm, outcome: warm.loadOutcome } : await this.loaded(unit);
    if (!loaded.ok) return { ok: false, reason: loaded.timedOut ? 'timeout' : 'crash', errorType: loaded.errorType, errorMessage: loaded.errorMessage };
    if (!instance) return { ok: false, reason: 'crash', errorType: 'Runtime.Unknown', errorMessage: 'no instance' };
    if (instance.dead) return this.invoke(unit, event, options);
    instance.lastUsed = Date.now();
    const id = this.nextId++;
    const timeoutMs = unit.timeout * 1000;
    return new Promise<InvokeOutcome>((resolve) => {
      const timer = setTimeout(() => {
        instance.pending.delete(id);
        resolve({ ok: false, reason: 'timeout', errorType: 'Sandbox.Timedout', errorMessage: `Task timed out after ${unit.timeout.toFixed(2)} seconds` });
        this.log.warn(`${unit.id}: ran past its timeout of ${unit.timeout} s; instance replaced`);
        this.retire(unit.functionName, instance);
      }, timeoutMs);
      instance.pending.set(id, { resolve, timer });
      const requestId = options.requestId ?? randomUUID();
      const deadline = Date.now() + timeoutMs;
      instance.handle.lastRequestId = requestId;
      instance.handle.post(EventText.is(event) ? { type: 'invoke', id, eventJson: event.json, requestId, deadline } : { type: 'invoke', id, event, requestId, deadline });
    });
  }

  private retire(functionName: string, instance: Instance): void {
    if (this.instances.get(functionName) === instance) this.instances.delete(functionName);
    void instance.kill();
  }

  private async instance(unit: FunctionUnit, bareThread = false): Promise<Instance | Extract<LoadOutcome, { ok: false }>> {
    if (this.stopped) return { ok: false, errorType: 'Runtime.Stopped', errorMessage: 'fw dev is stopping' };
    const current = this.instances.get(unit.functionName);
    if (current && !current.dead && current.generation === this.generation && this.buildsQueued === 0) return current;
    await this.building;
    const again = this.instances.get(unit.functionName);
    if (again && !again.dead && again.generation === this.generation) return again;
    if (again) this.retire(unit.functionName, again);
    const built = this.bundler.result(unit.file);
    if (!built) await this.bundler.build([unit.file], false);
    const result = this.bundler.result(unit.file)!;
    if (!result.ok) return { ok: false, errorType: 'CompileError', errorMessage: `${unit.file} does not compile: ${result.message}` };
    const handle = bareThread ? this.bareThread(unit.memorySize) : this.takeSpare(unit.memorySize);
    const instance = new Instance(handle, this.generation, unit, result.bundle, this.environment(unit), (dead) => {
      if (this.instances.get(unit.functionName) === dead) this.instances.delete(unit.functionName);
    }, this.log, this.options.initTimeoutMs ?? INIT_TIMEOUT_MS);
    this.instances.set(unit.functionName, instance);
    // Spares are replaced once this load is done (and the first request answered): booting them meanwhile would
    // slow the load they stand in for.
    void Promise.all([instance.ready, this.options.sparesAfter?.()]).then(() => this.fillSpares());
    const t0 = performance.now();
    if (DEBUG) void instance.ready.then((o) => debug(`${unit.id}: instance of generation ${this.generation} ${o.ok ? 'ready' : 'failed'} in ${(performance.now() - t0).toFixed(1)} ms`));
    return instance;
  }

  private takeSpare(memorySize: number): WorkerHandle {
    const index = this.spares.findIndex((spare) => spare.memorySize === memorySize);
    // A thread started for a load at once boots bare: the handler imports what it needs, without waiting for a preload.
    return index === -1 ? this.bareThread(memorySize) : this.spares.splice(index, 1)[0]!;
  }

  private bareThread(memorySize: number): WorkerHandle {
    return new WorkerHandle(undefined, this.baseEnvironment(), memorySize, this.services, this.threadOutput);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    const early = this.firstThread;
    this.firstThread = undefined;
    await early?.worker.terminate();
    const all = [...this.instances.values()];
    this.instances.clear();
    await Promise.all(all.map((i) => i.kill()));
    await Promise.all(this.spares.map((spare) => spare.worker.terminate()));
    this.spares = [];
    await this.bundler.dispose();
  }
}

/** The memorySize most of the units have (spare threads are started with its heap limits). */
function mostCommonMemorySize(units: readonly FunctionUnit[]): number | undefined {
  const counts = new Map<number, number>();
  for (const unit of units) counts.set(unit.memorySize, (counts.get(unit.memorySize) ?? 0) + 1);
  return [...counts].sort((a, b) => b[1] - a[1])[0]?.[0];
}

/** A file's text, or undefined when it cannot be read. */
function readText(file: string): string | undefined {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}
