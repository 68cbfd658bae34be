import * as fs from 'node:fs';
import * as path from 'node:path';
import { ENV, kindSourceFolders, type AppDefinition } from '@framework/core';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ActivityLog, batchedLineWriter, type ActivityLogOptions } from './activity/index.js';
import { ConsoleEventStream, DevProblems, RequestRecords } from './console/index.js';

/** Where the console files a config that does not load. */
const CONFIG_PROBLEM_FILE = 'fw.config.ts';
import { refreshClient } from './client-refresh.js';
import type { BackgroundTypeCheck } from './typecheck/index.js';
import { loadAppWithInputs } from '../app-loader/index.js';
import { writeAppTypes } from '../types/index.js';
import { apiKeyGate, deployedApiKeyAuthorizerTtl } from './auth/api-key-gate.js';
import { checkJwt } from './auth/jwt-check.js';
import type { LocalIssuer } from './auth/local-issuer.js';
import { DevClock, type DevClockMode } from './clock/index.js';
import { EngineStartup } from './engines/engine-startup.js';
import type { EmbeddedInboxEngine, EnginePreferences } from './engines/index.js';
import type { DevEngine, DevLogger } from './engines/engine.js';
import { PortReservation } from './engines/ports.js';
import { FileStamps, FolderListing, Freshness, WatchGate, eventsReliableFor } from './freshness/index.js';
import { FunctionHost, type FunctionOutput } from './functions/function-host.js';
import type { EarlyThread } from './functions/early-thread.js';
import { OUT_OF_MEMORY_ERROR_TYPE, SYNC_REQUEST_LIMIT_BYTES, describeBytes, eventBytesOver } from './limits/index.js';
import { HandlerBundler } from './functions/handler-bundler.js';
import { isDevPath } from './server/dev-endpoint-guard.js';
import { FirstAnswer } from './server/first-answer.js';
import { RequestActivity } from './server/request-activity.js';
import { gatewayAnswer } from './server/gateway-answer.js';
import { buildHttpEvent, type JwtAuthorizerContext } from './server/gateway-event.js';
import { errorResponse, mapFunctionResult } from './server/gateway-response.js';
import { openDevHttp } from './server/dev-http.js';
import { engineNotReady, listenHttpServer, portInUseError, servedBy } from './server/http-server.js';
import { RouteTable } from './server/route-table.js';
import { send } from './server/send-response.js';
import { useServingHeapFlags } from './functions/serving-heap-flags.js';
import { startupTable } from './startup-table.js';
import { DevOpenApi } from './api-docs/index.js';
import { removeStateFile, writeStateFile } from './state-file.js';
import { watchProject, type ProjectWatcher } from './watch.js';
import { engineContext } from './startup/engine-context.js';
import { FunctionEnvironment } from './startup/function-environment.js';
import { startEngines } from './startup/start-engines.js';

export { BODY_LIMIT_BYTES } from './server/http-server.js';
export { fillEnvironment } from './startup/engine-environment.js';
/**
 * How long, from start, requests that need an engine finishing its start in the background (a database: server up,
 * migrations applied) wait for it. Past it they get 503 ENGINE_NOT_READY naming the engine until it is ready.
 */
export const ENGINE_READY_TIMEOUT_MS = 120_000;

/**
 * How long after listening the start-up's own work (loading every route once) waits for a first request: when one
 * comes, that work waits for its answer instead.
 */
const FIRST_REQUEST_GRACE_MS = 200;

/**
 * How long no request must have been in flight before the start-up loads the next route: each load is a thread
 * importing a module graph (seconds of CPU on a small machine), so under traffic it waits and requests keep the CPU.
 */
const WARM_UP_QUIET_MS = 300;

const DEBUG = process.env.FW_DEV_DEBUG === '1';
function debug(message: string): void {
  if (DEBUG) process.stderr.write(`[fw:debug] ${message}\n`);
}

/** Options of `DevServer.start` (and of `fw dev`). */
export interface DevServerOptions {
  /** The project folder (where `fw.config.ts` is). */
  readonly rootDir: string;
  /** 0 picks a free port. @default 3000 */
  readonly port?: number;
  /** @default '127.0.0.1' */
  readonly host?: string;
  /** @default 'dev' */
  readonly stage?: string;
  /** Engine kind per intent. @default - the first available of native, embedded */
  readonly engines?: EnginePreferences;
  /** Where logs go. @default - stdout / stderr with a `[fw]` prefix */
  readonly log?: DevLogger;
  /**
   * Where the line per request, queue batch and cron run goes; `false` prints none (`fw dev --quiet`).
   * @default - stdout, in colour when it is a terminal
   */
  readonly activityLog?: ActivityLogOptions | false;
  /**
   * Run the project's TypeScript checker in a thread beside the server (once it has started) and print type errors;
   * requests never wait for it (`fw dev` turns it on unless `--no-typecheck`). @default false
   */
  readonly typecheck?: boolean;
  /** Where the start-up table goes. @default - stdout */
  readonly print?: (text: string) => void;
  /** How long requests that need an engine wait for it, from start (then 503 until it is ready). @default ENGINE_READY_TIMEOUT_MS */
  readonly engineReadyTimeoutMs?: number;
  /**
   * Watch the project's files, to rebuild as soon as a file is saved. Only an accelerator: without it each request
   * still finds and builds what changed before it is served. @default true
   */
  readonly watch?: boolean;
  /**
   * The time the engines schedule by: `real` the machine's clock; `manual` a clock that stands still until a test
   * moves it (`DevServer.clock.advance`): crons fire only then, delayed messages and retries wait for it. @default 'real'
   */
  readonly clock?: DevClockMode;
  /**
   * Where the engines keep their data (databases, queue logs, stored files, the issuer's key) and the state file.
   * A test harness points it at a folder of its own, so tests never touch the data of the developer's `fw dev`.
   * @default '<rootDir>/.fw'
   */
  readonly dataDir?: string;
  /** Where the functions' own output (their logs) goes. @default - stdout and stderr */
  readonly functionOutput?: FunctionOutput;
  /**
   * Load every route once after start, one after another: the start-up table shows each route's scopes and the first
   * requests find warm threads. A test harness that calls a few routes turns it off: those loads (a thread each)
   * would compete with its first request for the CPU; the table then shows no scopes. @default true
   */
  readonly warmRoutes?: boolean;
  /**
   * Spare function threads load every package the handlers import ahead of time (`FunctionHostOptions`). A test
   * harness turns it off: each function then imports only what its handler needs. @default true
   */
  readonly preloadPackages?: boolean;
  /**
   * A function thread started before this module was loaded (`startEarlyThread`, as `fw dev` does): the first spare,
   * so Node's bootstrap of it overlapped the loading. @default - the first spare starts with the first build
   */
  readonly firstThread?: EarlyThread;
}

export const consoleLogger: DevLogger = {
  info: (m) => process.stdout.write(`[fw] ${m}\n`),
  warn: (m) => process.stderr.write(`[fw] warning: ${m}\n`),
  error: (m) => process.stderr.write(`[fw] error: ${m}\n`),
};

/**
 * `fw dev`: the app model served on a laptop. Routes become API Gateway HTTP API 2.0 events handled by the route's
 * function in a worker thread; scoped routes pass the local JWT authorizer first; local engines stand in for the
 * intents; every function gets exactly the variables core names, with local values, plus `FW_DEV_ENDPOINT`.
 */
export class DevServer {
  private app: AppDefinition;
  private routes: RouteTable;
  private watcher?: ProjectWatcher;
  private typeCheck?: BackgroundTypeCheck;
  private stopping?: Promise<void>;
  /** The files the app model was compiled from, stamped before the load that read them. */
  private configInputs: FileStamps;
  /** What discovery saw in the folders the app's units come from. */
  private discovered: FolderListing;
  /** Checks, before a request is dispatched, that the app model and the handlers are built from the files on disk. */
  readonly freshness: Freshness;
  /** Every variable injected into functions (for state.json and tests). */
  readonly environment: Readonly<Record<string, string>>;
  /** Resolves when every route handler has been loaded once and the start-up table printed. */
  readonly settled: Promise<void>;
  /** The engines' time (`DevServerOptions.clock`): a test moves a manual one with `advance` and `drain`. */
  clock: DevClock = new DevClock();
  /** Where the engines keep their data (`DevServerOptions.dataDir`). */
  dataDir = '';
  /** The console's per-request event, answer and log lines. */
  requestRecords?: RequestRecords;
  /** What is broken right now (the console's Errors tab). */
  problems?: DevProblems;
  /** Resolves true once every engine is ready, false when the start-up's wait for them ran out first. */
  private enginesReady: () => Promise<boolean> = async () => true;
  /** The engines still getting ready, by name. */
  private notReady: ReadonlySet<string> = new Set();
  /** The deployed API-key authorizer's cache TTL (`cdk.json`), read at the first request to a route that accepts keys. */
  private apiKeyAuthorizerTtl: number | undefined;

  private constructor(
    readonly url: string,
    readonly rootDir: string,
    app: AppDefinition,
    private readonly server: FastifyInstance,
    private readonly host: FunctionHost,
    private readonly bundler: HandlerBundler,
    configInputs: readonly string[],
    private readonly engines: readonly DevEngine[],
    environment: Record<string, string>,
    private readonly log: DevLogger,
    settle: (server: DevServer) => Promise<void>,
  ) {
    this.app = app;
    this.routes = new RouteTable(app.routes);
    this.configInputs = new FileStamps(configInputs);
    this.discovered = new FolderListing(discoveryFolders(rootDir, app));
    this.freshness = new Freshness({
      appChange: (gate) => this.configInputs.changed(undefined, gate) ?? this.discovered.changed(gate),
      handlerChange: (file, gate) => this.bundler.changedInput(file, gate),
      reloadApp: () => this.reload(),
      // Only the handlers built from a changed file: an edit costs one compile, not one per handler.
      rebuildHandlers: () => this.host.rebuild(this.app.units, { changedOnly: true }),
    });
    this.environment = environment;
    this.settled = settle(this);
  }

  currentApp(): AppDefinition {
    return this.app;
  }

  /** The running engine of an intent (the queue engine for `queues`), for a test harness to observe; undefined if the app has none. */
  engine(intent: DevEngine['intent']): DevEngine | undefined {
    return this.engines.find((e) => e.intent === intent);
  }

  static async start(options: DevServerOptions): Promise<DevServer> {
    const hostName = options.host ?? '127.0.0.1';
    const requested = options.port ?? 3000;
    // First of all: a taken port is known in a millisecond, not after the engines took their seconds to start. From
    // here on the port is held, and the HTTP server listens on the very socket that holds it (`PortReservation`).
    const reservation = await PortReservation.take(hostName, requested).catch((error: NodeJS.ErrnoException) => {
      throw error.code === 'EADDRINUSE' ? portInUseError(hostName, requested, error) : error;
    });
    try {
      return await DevServer.startOn(options, hostName, reservation);
    } catch (error) {
      await reservation.release();
      throw error;
    }
  }

  private static async startOn(options: DevServerOptions, hostName: string, reservation: PortReservation): Promise<DevServer> {
    const rootDir = path.resolve(options.rootDir);
    const stage = options.stage ?? 'dev';
    const log = options.log ?? consoleLogger;
    const print = options.print ?? ((text: string) => process.stdout.write(text));
    // The dev console's live stream (GET /_dev/events): requests, queue batches, cron runs, invocations.
    const consoleEvents = new ConsoleEventStream();
    // What the console shows for a request id: the event, the answer, the handler's log lines.
    const requestRecords = new RequestRecords();
    // What is broken right now (a handler that does not compile or load, a config that does not): the console's banner.
    const problems = new DevProblems();
    const activity =
      options.activityLog === false
        ? undefined
        : new ActivityLog(options.activityLog ?? { write: batchedLineWriter(process.stdout), colour: process.stdout.isTTY === true && !process.env.NO_COLOR });
    debug(`start at ${performance.now().toFixed(0)} ms of the process`);
    const { app, inputs: configInputs } = await loadAppWithInputs(rootDir, stage);
    debug(`app loaded at ${performance.now().toFixed(0)} ms`);
    warnMissingRoutesDir(rootDir, app, log);
    refreshClient(rootDir, app, log);
    // Before the background type check starts, so it checks against this app's ids and scopes.
    writeTypes(rootDir, app, log);
    const port = reservation.port;
    const reachable = hostName === '0.0.0.0' || hostName === '::' ? '127.0.0.1' : hostName;
    const url = `http://${reachable}:${port}`;
    const dataDir = path.resolve(options.dataDir ?? path.join(rootDir, '.fw'));
    fs.mkdirSync(path.join(dataDir, 'dev'), { recursive: true });
    const clock = new DevClock(options.clock ?? 'real');

    const buildDir = path.join(dataDir, 'dev', 'build');
    let server: DevServer | undefined;
    const currentApp = () => server?.currentApp() ?? app;
    const functionEnvironment = new FunctionEnvironment(app.region, buildDir, currentApp);
    const bundler = new HandlerBundler(rootDir, buildDir);
    const firstAnswer = new FirstAnswer();
    let signalListening!: () => void;
    const listening = new Promise<void>((resolve) => (signalListening = resolve));
    const host = new FunctionHost(bundler, () => functionEnvironment.base(), (unit) => functionEnvironment.forUnit(unit), log, {
      ...(options.functionOutput ? { output: options.functionOutput } : {}),
      ...(options.preloadPackages === false ? { preloadPackages: false } : {}),
      onLogLine: (line, stream, lastRequestId) => requestRecords.line(line, stream, lastRequestId),
      onHandlerProblem: (file, problem) => problems.set(file, problem),
      sparesAfter: () => firstAnswer.settled(FIRST_REQUEST_GRACE_MS),
      firstPreloadAfter: () => listening.then(() => firstAnswer.settled(FIRST_REQUEST_GRACE_MS)),
      ...(options.firstThread ? { firstThread: options.firstThread } : {}),
    });
    const context = engineContext({ rootDir, dataDir, url, host: reachable, log, clock, functions: host, requestRecords, consoleEvents, ...(activity ? { activity } : {}), currentApp, freshness: () => server?.freshness });

    let fastify: FastifyInstance | undefined;
    const startup = new EngineStartup();
    const requests = new RequestActivity();
    let environment: Record<string, string>;
    try {
      const engines = await startEngines(startup, app, context, host, options.engines);
      environment = engines.environment;
      functionEnvironment.set(environment);
      // Compile in the background (spare threads start with the environment filled in): before the issuer's key and
      // the seeded users (scrypt) are read, so the threads boot meanwhile.
      // The previous run's bundles of unchanged files are taken as they are: esbuild starts only for what changed.
      const compiled = host.rebuild(app.units, { reuseLastRun: true });
      debug(`engines started at ${performance.now().toFixed(0)} ms`);
      // The issuer, its users and the HTTP stack (dev/server/dev-http.ts): the engines (the embedded database's own
      // process), the spare threads and esbuild boot while Fastify loads on this thread.
      const http = await openDevHttp({
        app,
        dataDir,
        url,
        listenHost: hostName,
        log,
        clock,
        ...(activity ? { activity } : {}),
        consoleEvents,
        requestRecords,
        problems,
        devAuthToken: engines.devAuthToken,
        inbox: () => (startup.engines.find((e) => e.intent === 'notifications') as EmbeddedInboxEngine | undefined)?.localInbox,
        host,
        enginePlugins: startup.plugins,
        notReady: startup.notReady,
        untilEnginesReady: () => startup.untilReady(),
        currentApp,
        freshness: () => server?.freshness,
        serveRoute: (request, reply, issuer) => firstAnswer.track(requests.track(server!.serveRoute(request, reply, issuer))),
        openApi: new DevOpenApi({ currentApp, freshness: () => server?.freshness, bundler, baseUrl: url, log }),
      });
      fastify = http.fastify;
      // Listen while the handlers compile: a request waits for the build it needs, not for the server to start.
      void compiled;
      // Serving does not wait for the engines (the embedded database takes a second or more to boot and check its
      // migrations): what needs one waits for it (`untilReady`; the database's published port also holds each
      // connection until it is ready), the rest is answered at once.
      startup.startWaiting(options.engineReadyTimeoutMs ?? ENGINE_READY_TIMEOUT_MS, log);
      // Functions loaded once the engines are ready talk to them directly (the database's own port).
      void startup.settled().then(() => functionEnvironment.set(engines.readyFunctionEnvironment()));
      await listenHttpServer(fastify, hostName, reservation);
      signalListening();
      debug(`listening at ${performance.now().toFixed(0)} ms`);
    } catch (error) {
      await fastify?.close().catch(() => undefined);
      await host.stop();
      await Promise.all(startup.engines.map((e) => e.stop().catch(() => undefined)));
      throw error;
    }

    // The storage engine's per-run secret stays in memory and in the workers: a file could be read by others.
    const { [ENV.devStorageToken]: _storageToken, [ENV.devAuthToken]: _authToken, [ENV.devInboxToken]: _inboxToken, ...stateEnv } = environment;
    writeStateFile(dataDir, { pid: process.pid, url, stage, env: { ...stateEnv, [ENV.devEndpoint]: url } });
    server = new DevServer(url, rootDir, app, fastify, host, bundler, configInputs, startup.engines, environment, log, async (s) => {
      // Load each route once, one after another, for the scopes in the table (and warm instances): after the first
      // request is answered, and each only once no request came for a moment (a request for a route not loaded yet
      // loads it itself, at once).
      if (options.warmRoutes !== false) await firstAnswer.settled(FIRST_REQUEST_GRACE_MS);
      const scopes = new Map<string, readonly string[] | undefined>();
      for (const route of options.warmRoutes === false ? [] : s.currentApp().routes) {
        await requests.quiet(WARM_UP_QUIET_MS, () => s.stopping !== undefined);
        if (s.stopping) break;
        const loaded = await host.loadInBackground(route);
        scopes.set(route.functionName, loaded.ok ? loaded.info.scopes : undefined);
      }
      print(startupTable(s.currentApp(), url, scopes, startup.summaries));
      // From now on the process serves more than it loads.
      useServingHeapFlags();
      // After start-up, so that checking never slows the first requests down.
      if (options.typecheck && !s.stopping) {
        const { BackgroundTypeCheck } = await import('./typecheck/index.js');
        if (!s.stopping) s.typeCheck = BackgroundTypeCheck.start(rootDir, log);
      }
    });
    server.clock = clock;
    server.enginesReady = () => startup.untilReady();
    server.notReady = startup.notReady;
    server.dataDir = dataDir;
    server.requestRecords = requestRecords;
    server.problems = problems;
    // Watching starts once the first request is answered: chokidar's first scan of the project (a stat per file)
    // would compete with it, and every request checks its files anyway (the watcher only rebuilds ahead of time).
    if (options.watch !== false) {
      const watching = server;
      void firstAnswer.settled(FIRST_REQUEST_GRACE_MS).then(() => {
        if (watching.stopping) return;
        // Where the folder watches' events are reliable, a request stat-checks only what changed since (`WatchGate`).
        const gate = eventsReliableFor(rootDir) ? new WatchGate() : undefined;
        watching.watcher = watchProject(rootDir, { onChange: () => watching.freshness.refresh(), log }, gate);
        if (gate) {
          gate.trust();
          watching.freshness.useWatches(gate);
        }
      });
    }
    return server;
  }

  /**
   * Re-reads fw.config.ts (files added or removed, config edited), then rebuilds every handler. Runs one at a time
   * (`Freshness` serializes it). Inputs are stamped before the load reads them, so a save during it shows afterwards.
   */
  private async reload(): Promise<void> {
    const configInputs = new FileStamps(this.configInputs.files);
    const discovered = new FolderListing(discoveryFolders(this.rootDir, this.app));
    try {
      const { app: next, inputs } = await loadAppWithInputs(this.rootDir, this.app.stage);
      configInputs.update(inputs);
      const sameFolders = discoveryFolders(this.rootDir, next).join('\n') === discoveryFolders(this.rootDir, this.app).join('\n');
      this.discovered = sameFolders ? discovered : new FolderListing(discoveryFolders(this.rootDir, next));
      this.configInputs = configInputs;
      const before = intentShape(this.app);
      this.app = next;
      this.routes = new RouteTable(next.routes);
      refreshClient(this.rootDir, next, this.log);
      writeTypes(this.rootDir, next, this.log);
      this.problems?.set(CONFIG_PROBLEM_FILE, undefined);
      this.problems?.retain(new Set(next.units.map((unit) => unit.file)));
      if (intentShape(next) !== before) this.log.warn('the intents changed (databases, queues, caches, storage): restart fw dev to start their engines');
      this.log.info(`reloaded the app: ${next.routes.length} routes, ${next.functions.length} functions, ${next.queues.length} queues, ${next.crons.length} crons`);
    } catch (error) {
      // A config that imports a file not created yet: a file created in its folders also counts as a change.
      configInputs.addFolders();
      this.configInputs = configInputs;
      this.discovered = discovered;
      // Read while being saved (a file truncated, not yet written): the next check loads the finished save instead.
      const superseded = configInputs.changed() ?? discovered.changed();
      if (superseded) {
        debug(`the app did not reload, but ${superseded} changed since; loading again`);
        return;
      }
      this.log.error(`the app did not reload; still serving the previous version:\n${(error as Error).message}`);
      this.problems?.set(CONFIG_PROBLEM_FILE, { kind: 'config', message: `the app did not reload; still serving the previous version:\n${(error as Error).message}` });
    }
    await this.host.rebuild(this.app.units);
  }

  private async serveRoute(request: FastifyRequest, reply: FastifyReply, issuer: LocalIssuer, waited = 0): Promise<FastifyReply> {
    const requestId = request.id;
    const url = request.raw.url ?? '/';
    const q = url.indexOf('?');
    const rawPath = q === -1 ? url : url.slice(0, q);
    const match = this.routes.match(request.method, rawPath);
    if (!match) {
      // The dev server's own paths keep the framework's error body; any other path is the gateway's to refuse.
      if (isDevPath(url)) return send(reply, errorResponse(404, 'NOT_FOUND', `no route ${request.method} ${rawPath}`, requestId));
      return this.refuse(reply, requestId, 404, `no route ${request.method} ${rawPath} in this app (routes come from src/routes/)`);
    }
    const route = match.route;
    servedBy.set(request, route.functionName);
    const fresh = this.freshness.beforeInvoke(route.file, request.raw);
    // A reload may have changed the route table meanwhile: match again (files that never stop changing: serve anyway).
    if (fresh && waited < 3) return fresh.then(() => this.serveRoute(request, reply, issuer, waited + 1));
    if (fresh) await fresh;
    // A handler that may open a database connection (its module's own start-up included) waits, before it loads, for
    // the database to be up and migrated; the others (a health check) are answered while it boots.
    if (this.notReady.size) {
      await this.host.builds();
      if (this.bundler.reachesDatabase(route.file) && !(await this.enginesReady())) return send(reply, engineNotReady(this.notReady, requestId));
    }
    const loaded = await this.host.load(route);
    if (!loaded.ok) {
      if (loaded.timedOut) return send(reply, errorResponse(504, 'GATEWAY_TIMEOUT', `the handler of ${route.routeKey} (${route.file}) did not load in time: ${loaded.errorMessage}`, requestId));
      // The handler's own words stay in the console: a 500 body never carries them (as the gateway's would not).
      this.log.error(`${route.routeKey} (request ${requestId}): the handler did not load: ${loaded.errorType}: ${loaded.errorMessage}`);
      return send(reply, errorResponse(500, 'HANDLER_LOAD_FAILED', `the handler of ${route.routeKey} (${route.file}) failed to load (see the fw dev console, request ${requestId})`, requestId));
    }
    let authorizer: JwtAuthorizerContext | undefined;
    // A route that accepts API keys: deployed, its Lambda authorizer verifies a key (locally the function's own
    // verifier does: the app's keys live in its database, which the function reaches). Its gateway refuses what the
    // deployed one refuses: cached (the default), a request without Authorization, X-API-Key alone included.
    let presentsApiKey = false;
    if (loaded.info.auth?.includes('apiKey') === true) {
      this.apiKeyAuthorizerTtl ??= deployedApiKeyAuthorizerTtl(this.rootDir, this.log);
      const gate = apiKeyGate(this.apiKeyAuthorizerTtl, { authorization: request.headers.authorization, 'x-api-key': headerText(request.headers['x-api-key']) });
      if (gate.refused !== undefined) return this.refuse(reply, requestId, 401, gate.refused);
      presentsApiKey = gate.presentsKey;
    }
    if (loaded.info.scopes.length && !presentsApiKey) {
      const check = await checkJwt(issuer, this.app, route.routeKey, loaded.info.scopes, request.headers.authorization);
      if (!check.ok) return this.refuse(reply, requestId, check.statusCode, check.reason, check.headers);
      authorizer = check.authorizer;
    }
    const event = buildHttpEvent(
      { method: request.method, url, rawHeaders: request.raw.rawHeaders, body: Buffer.isBuffer(request.body) ? request.body : undefined, sourceIp: request.ip, port: request.raw.socket.localPort ?? 0 },
      match,
      requestId,
      new Date(),
      authorizer,
    );
    this.requestRecords?.event(requestId, event);
    const eventBytes = eventBytesOver(event, event.body?.length ?? 0, SYNC_REQUEST_LIMIT_BYTES);
    if (eventBytes) {
      this.log.warn(
        `${route.routeKey}: answered 413: the request is ${describeBytes(eventBytes)} once in the function's event (JSON, binary bodies base64-encoded), ` +
          `over Lambda's 6 MB limit for a synchronous invocation (${SYNC_REQUEST_LIMIT_BYTES} bytes; the HTTP API's own 10 MB does not help). ` +
          'Deployed, the function is never invoked either. Upload large files to storage with a presigned URL instead.',
      );
      return send(reply, gatewayAnswer(413, `the event is ${eventBytes} bytes, over Lambda's ${SYNC_REQUEST_LIMIT_BYTES} bytes for a synchronous invocation`), requestId);
    }
    const outcome = await this.host.invoke(route, event, { requestId });
    if (outcome.ok) return send(reply, mapFunctionResult(outcome.value), requestId);
    // Failures of Lambda itself (the reason is in the terminal already): the HTTP API's own answer, as deployed.
    if (outcome.errorType === 'Function.ResponseSizeTooLarge' || outcome.errorType === OUT_OF_MEMORY_ERROR_TYPE) return send(reply, gatewayAnswer(500, `the invocation failed in Lambda itself (${outcome.errorType})`), requestId);
    if (outcome.reason === 'timeout') return send(reply, errorResponse(504, 'GATEWAY_TIMEOUT', `${route.routeKey} did not answer within its timeout of ${route.timeout} s`, requestId));
    this.log.error(`${route.routeKey} (request ${requestId}) failed: ${outcome.errorType}: ${outcome.errorMessage}`);
    return send(reply, errorResponse(500, 'INTERNAL_ERROR', `${route.routeKey} failed (see the fw dev console, request ${requestId})`, requestId));
  }

  /** The gateway's own refusal, as the HTTP API answers it; why goes to the terminal and the dev-only header. */
  private refuse(reply: FastifyReply, requestId: string, statusCode: 401 | 403 | 404, reason: string, headers: Record<string, string> = {}): FastifyReply {
    this.log.info(`${reply.request.method} ${(reply.request.raw.url ?? '/').split('?')[0]}: the gateway answered ${statusCode}: ${reason} (request ${requestId})`);
    return send(reply, gatewayAnswer(statusCode, reason, headers), requestId);
  }

  /** Stops watching, the HTTP server, every function and every engine; removes state.json. */
  stop(): Promise<void> {
    this.stopping ??= (async () => {
      await this.watcher?.close();
      await this.typeCheck?.stop();
      await this.server.close();
      await this.host.stop();
      await Promise.all(this.engines.map((e) => e.stop().catch((error: Error) => this.log.warn(`${e.intent} engine did not stop cleanly: ${error.message}`))));
      removeStateFile(this.dataDir);
    })();
    return this.stopping;
  }
}

/**
 * `.fw/types/app.d.ts` for the app just loaded (ids and scopes for the type checker). A failure to write it is said
 * and serving goes on: the types help the editor, the server does not need them.
 */
function writeTypes(rootDir: string, app: AppDefinition, log: DevLogger): void {
  try {
    writeAppTypes(rootDir, app);
  } catch (error) {
    log.warn(`could not write the app's types (.fw/types/app.d.ts): ${(error as Error).message}`);
  }
}

/** A routes folder that does not exist is most often a typo in `routesDir`: nothing would say why no route answers. */
function warnMissingRoutesDir(rootDir: string, app: AppDefinition, log: DevLogger): void {
  const dir = app.directories.routes;
  if (fs.existsSync(path.join(rootDir, dir))) return;
  log.warn(`the routes folder ${dir} does not exist, so no routes are served: create it (fw g route "<path>" -m get does) or fix routesDir in fw.config.ts`);
}

/** The folders the app's units are discovered in. */
function discoveryFolders(rootDir: string, app: AppDefinition): string[] {
  const { routes, functions } = app.directories;
  // And every kind's own folder (src/queues, src/crons, src/ws): a file added or removed there changes the app model
  // as a route file does.
  return [routes, functions, ...kindSourceFolders()].map((dir) => path.join(rootDir, dir));
}

function intentShape(app: AppDefinition): string {
  return JSON.stringify([app.databases.map((d) => d.id), app.queues.map((q) => q.id), app.caches.map((c) => c.id), app.storage.map((s) => s.id)]);
}

/** A header's value as one string (Node gives an array for a repeated header). */
function headerText(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value.join(',') : value;
}
