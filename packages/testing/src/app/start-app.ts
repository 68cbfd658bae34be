import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ENV } from '@framework/core';
import type { DevServer, EmbeddedQueueEngine, EnginePreferences, PostgresEngine } from '@framework/cli/dev';
import { authorizedFetch, deployedTokens, devIssuerTokens, type DeployedMachineClients, type TokenSource } from '../auth/token-source.js';
import type { Identity } from '../auth/identity.js';
import { DatabaseSnapshot } from '../data/database-snapshot.js';
import { readSavedSnapshots, saveSnapshots } from '../data/saved-snapshots.js';
import { testDatabase, type TestDatabase } from '../data/test-database.js';
import { linkDatabasesToMemory, removeDataFolder } from '../data/memory-folder.js';
import { migratedTemplate } from '../data/migrated-template.js';
import { copyMigratedPglite, copyPgliteTemplate, pgliteTemplate } from '../data/pglite-template.js';
import { copyPostgresTemplate, postgresTemplate } from '../data/postgres-template.js';
import { durationMs } from '../duration.js';
import { TestingError } from '../errors.js';
import { HttpClient, type ClientFactoryOptions } from '../http/http-client.js';
import { bucketObserver, queueObserver, strictRecord, type BucketObserver, type QueueObserver } from '../observe/local-observers.js';
import { LogCapture } from '../observe/log-capture.js';
import { keepBuild, seedBuild } from './build-cache.js';
import { cleanUpOnExit } from './exit-cleanup.js';
import type { InvokeResult, TestApp, TestClock, TraceEntry } from './test-app.js';

/** Options of `startApp`. */
export interface StartAppOptions<C = HttpClient> {
  /** The project folder (where `fw.config.ts` is). @default process.cwd() */
  readonly root?: string;
  /** @default 'dev' */
  readonly stage?: string;
  /** Engine kind per intent, as `fw dev --engine` (`{ databases: 'embedded' }` for PGlite). @default - as fw dev picks */
  readonly engines?: EnginePreferences;
  /**
   * A deployed stage's base URL: the app is not started, the clients call it; the local-only helpers throw
   * FW_ERR_TESTING_LOCAL_ONLY. @default - the app runs locally
   */
  readonly url?: string;
  /** Deployed stage only: where machine clients get their tokens (`asMachine`). @default - none */
  readonly machineClients?: DeployedMachineClients;
  /**
   * Makes the clients (a generated `createClient`, or any factory taking `{ baseUrl, fetch }`).
   * @default - `HttpClient`: JSON over fetch, status and body per call
   */
  readonly client?: (options: ClientFactoryOptions) => C;
  /** Print the dev server's messages and the functions' output (captured either way, see `app.logs()`). @default false */
  readonly verbose?: boolean;
}

/**
 * Starts the app for a test: `fw dev`'s server and engines inside this process (a free port on 127.0.0.1, a data
 * folder of its own under `.fw/test/`, a clock that only the test moves), the databases migrated and snapshotted
 * once. With `url`, a deployed stage is tested over HTTP instead.
 */
export async function startApp<C = HttpClient>(options: StartAppOptions<C> = {}): Promise<TestApp<C>> {
  const makeClient = options.client ?? ((o: ClientFactoryOptions) => new HttpClient(o) as unknown as C);
  if (options.url !== undefined) {
    let base: URL;
    try {
      base = new URL(options.url);
    } catch {
      throw new TestingError('FW_ERR_TESTING_BAD_OPTION', `startApp({ url }): ${JSON.stringify(options.url)} is not a URL; give the stage's API URL, e.g. https://abc123.execute-api.eu-west-1.amazonaws.com`);
    }
    return remoteApp(base.toString().replace(/\/$/, ''), deployedTokens(options.machineClients), makeClient);
  }
  const began = performance.now();
  const { BUILD_MANIFEST, DevServer, ENGINES_BY_INTENT, findOnPath, loadApp, postgresUser, pgliteBackend, nativeBackend, applyPendingMigrations } = await import('@framework/cli/dev');
  const root = path.resolve(options.root ?? process.cwd());
  const testDir = path.join(root, '.fw', 'test');
  const dataDir = path.join(testDir, `${process.pid}-${randomBytes(4).toString('hex')}`);
  fs.mkdirSync(dataDir, { recursive: true });
  const forget = cleanUpOnExit(dataDir);
  /** The migrated template the databases were copied from, where their snapshot is kept (see saved-snapshots.ts). */
  let template: string | undefined;
  try {
    // The database starts from a copy of a folder fresh from initdb, made once per project, not from an initdb per app.
    debug(`@framework/cli/dev loaded in ${(performance.now() - began).toFixed(0)} ms`);
    const model = await loadApp(root, options.stage ?? 'dev');
    debug(`app model loaded at ${(performance.now() - began).toFixed(0)} ms`);
    const choice = options.engines?.databases;
    const native = ENGINES_BY_INTENT.databases.find((f) => f.kind === 'native');
    const nativeRuns = choice !== 'embedded' && native !== undefined && (await native.isAvailable(model));
    // Then from a copy of that folder with the app's migrations applied, made once per set of migrations: the dev
    // server finds nothing pending (falls back to the fresh folder when a migration fails: fw dev reports it).
    if (model.databases.length) linkDatabasesToMemory(dataDir);
    const ids = model.databases.map((d) => d.id);
    if (model.databases.length && !nativeRuns) {
      const base = await pgliteTemplate(testDir);
      const migrated = await migratedTemplate(testDir, model, { kind: 'embedded', base, layDown: (dir) => copyPgliteTemplate(base, dir, ids), backend: pgliteBackend, migrate: applyPendingMigrations });
      if (migrated) copyMigratedPglite(migrated, dataDir, ids);
      else copyPgliteTemplate(base, dataDir, ids);
      template = migrated;
    }
    const initdb = findOnPath('initdb');
    if (model.databases.length && nativeRuns && initdb) {
      const user = postgresUser();
      const base = await postgresTemplate(testDir, initdb, user);
      const migrated = await migratedTemplate(testDir, model, { kind: 'native', base, layDown: (dir) => copyPostgresTemplate(base, dir, user), backend: nativeBackend, migrate: applyPendingMigrations });
      copyPostgresTemplate(migrated ? path.join(migrated, 'databases', 'native') : base, dataDir, user);
      template = migrated;
    }
  } catch (error) {
    removeDataFolder(dataDir);
    forget();
    throw error;
  }
  debug(`databases laid down at ${(performance.now() - began).toFixed(0)} ms`);
  seedBuild(testDir, dataDir);
  const logs = new LogCapture(options.verbose === true);
  const quiet = { info: () => undefined, warn: () => undefined, error: () => undefined };
  let server: DevServer;
  try {
    server = await DevServer.start({
      rootDir: root,
      dataDir,
      port: 0,
      host: '127.0.0.1',
      ...(options.stage ? { stage: options.stage } : {}),
      ...(options.engines ? { engines: options.engines } : {}),
      clock: 'manual',
      watch: false,
      typecheck: false,
      activityLog: false,
      // A test calls a few routes: loading every one after start, or every package in every function's thread,
      // would slow its first request down.
      warmRoutes: false,
      preloadPackages: false,
      ...(options.verbose ? {} : { log: quiet, print: () => undefined }),
      functionOutput: { stdout: logs.stream('stdout'), stderr: logs.stream('stderr') },
    });
  } catch (error) {
    removeDataFolder(dataDir);
    forget();
    throw error;
  }
  debug(`dev server listening at ${(performance.now() - began).toFixed(0)} ms`);
  const snapshots = new Map<string, DatabaseSnapshot>();
  try {
    const engine = server.engine('databases') as PostgresEngine | undefined;
    const saved = engine && template ? readSavedSnapshots(template, [...engine.publishedEndpoints().keys()]) : undefined;
    if (engine && saved) {
      // The databases start as copies of the template the snapshot was taken from: nothing waits for them to boot
      // (PGlite takes a second or more) until the test queries, seeds or resets one.
      const direct = engine.endpoints();
      for (const [id, published] of engine.publishedEndpoints()) {
        const endpoint = direct.then((endpoints) => endpoints?.get(id) ?? Promise.reject(new Error(`database ${id} did not start (see app.logs(), or startApp({ verbose: true }) for the dev server's messages)`)));
        snapshots.set(id, DatabaseSnapshot.known(published, endpoint, saved.get(id)!));
      }
    } else if (engine) {
      const endpoints = await engine.endpoints();
      for (const [id, endpoint] of endpoints ?? []) snapshots.set(id, await DatabaseSnapshot.take(endpoint));
      // Taken before any test ran: what the template holds, kept beside it for the next apps.
      if (template && snapshots.size) saveSnapshots(template, snapshots);
    }
  } catch (error) {
    await Promise.all([...snapshots.values()].map((s) => s.close()));
    await server.stop();
    removeDataFolder(dataDir);
    forget();
    throw error;
  }
  debug(`databases snapshotted at ${(performance.now() - began).toFixed(0)} ms`);
  return localApp(server, dataDir, snapshots, logs, () => keepBuild(testDir, dataDir, BUILD_MANIFEST), forget, makeClient);
}

/** `FW_DEV_DEBUG=1`: where startApp's time goes, on stderr (as fw dev's own start-up lines). */
function debug(message: string): void {
  if (process.env.FW_DEV_DEBUG === '1') process.stderr.write(`[fw:debug] startApp: ${message}\n`);
}

function clientsFor<C>(baseUrl: string, tokens: TokenSource, makeClient: (o: ClientFactoryOptions) => C) {
  const anonymous = makeClient({ baseUrl, fetch: (input, init) => fetch(input, init) });
  return {
    anonymous,
    as: (identity: Identity) => makeClient({ baseUrl, fetch: authorizedFetch(() => tokens.token({ user: identity })) }),
    asMachine: (client: string) => makeClient({ baseUrl, fetch: authorizedFetch(() => tokens.token({ machine: client })) }),
  };
}

function localApp<C>(server: DevServer, dataDir: string, snapshots: Map<string, DatabaseSnapshot>, logs: LogCapture, keepBuild: () => void, forget: () => void, makeClient: (o: ClientFactoryOptions) => C): TestApp<C> {
  const app = server.currentApp();
  const clients = clientsFor(server.url, devIssuerTokens(server.url), makeClient);
  let stopping: Promise<void> | undefined;
  const live = (what: string) => {
    if (stopping) throw new TestingError('FW_ERR_TESTING_STOPPED', `${what} after app.stop(): start another app with startApp()`);
  };
  const notFound = (message: string) => new TestingError('FW_ERR_TESTING_NOT_FOUND', message);
  const queueEngine = server.engine('queues') as EmbeddedQueueEngine | undefined;
  const queues = strictRecord<QueueObserver>(
    app.queues.map((q) => [q.id, queueObserver(queueEngine!.queues.get(q.id)!)] as const),
    'queue',
    notFound,
  );
  const storageToken = server.environment[ENV.devStorageToken] ?? '';
  const storage = strictRecord<BucketObserver>(
    app.storage.map((b) => [b.id, bucketObserver(server.url, b.id, storageToken)] as const),
    'bucket',
    notFound,
  );
  const clock: TestClock = {
    now: () => new Date(server.clock.now()),
    advance: async (duration) => {
      live('app.clock.advance()');
      return server.clock.advance(durationMs(duration));
    },
  };
  const database = (id?: string): DatabaseSnapshot => {
    const wanted = id ?? (snapshots.size === 1 ? [...snapshots.keys()][0]! : undefined);
    if (wanted === undefined) throw notFound(snapshots.size ? `this app has ${snapshots.size} databases: name one, app.db('${[...snapshots.keys()][0]}'); databases: ${[...snapshots.keys()].join(', ')}` : 'this app has no database (infrastructure.databases in fw.config.ts)');
    const snapshot = snapshots.get(wanted);
    if (!snapshot) throw notFound(`no database "${wanted}" in this app; databases: ${[...snapshots.keys()].join(', ') || '(none)'}`);
    return snapshot;
  };
  return {
    url: server.url,
    local: true,
    client: clients.anonymous,
    anonymous: clients.anonymous,
    as: clients.as,
    asMachine: clients.asMachine,
    clock,
    drain: async (): Promise<TraceEntry[]> => {
      live('app.drain()');
      return server.clock.drain();
    },
    queues,
    storage,
    async invoke<T>(functionId: string, payload?: unknown): Promise<InvokeResult<T>> {
      live('app.invoke()');
      if (!app.functions.some((f) => f.id === functionId)) throw notFound(`no function "${functionId}" in this app (src/functions/); functions: ${app.functions.map((f) => f.id).join(', ') || '(none)'}`);
      const response = await fetch(new URL(`/_dev/invoke/${functionId}`, server.url), { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(payload ?? {}) });
      const value = (await response.json()) as unknown;
      if (response.headers.get('x-amz-function-error')) {
        const error = value as { errorType: string; errorMessage: string };
        return { ok: false, errorType: error.errorType, errorMessage: error.errorMessage };
      }
      return { ok: true, value: value as T };
    },
    db: (id?: string): TestDatabase => testDatabase(database(id)),
    async resetData() {
      live('app.resetData()');
      for (const snapshot of snapshots.values()) await snapshot.restore();
      // A message an earlier test sent and never drained would reach this test's consumer: purged, as SQS's PurgeQueue.
      for (const queue of queueEngine?.queues.values() ?? []) await queue.purge();
    },
    logs: (requestId?: string) => logs.of(requestId),
    stop() {
      stopping ??= (async () => {
        await Promise.all([...snapshots.values()].map((s) => s.close()));
        await server.stop();
        keepBuild();
        removeDataFolder(dataDir);
        forget();
      })();
      return stopping;
    },
  };
}

function remoteApp<C>(url: string, tokens: TokenSource, makeClient: (o: ClientFactoryOptions) => C): TestApp<C> {
  const clients = clientsFor(url, tokens, makeClient);
  const localOnly = (what: string): never => {
    throw new TestingError('FW_ERR_TESTING_LOCAL_ONLY', `${what} needs the local engines, and this app is the deployed stage at ${url}: keep it in tests that run against startApp() (locally), or check the effect over HTTP`);
  };
  const localOnlyRecord = (what: string) =>
    new Proxy(Object.create(null) as Record<string, never>, {
      get: (_target, key) => (typeof key === 'string' && key !== 'then' ? localOnly(`${what}['${key}']`) : undefined),
    });
  return {
    url,
    local: false,
    client: clients.anonymous,
    anonymous: clients.anonymous,
    as: clients.as,
    asMachine: clients.asMachine,
    clock: { now: () => localOnly('app.clock'), advance: async () => localOnly('app.clock.advance()') },
    drain: async () => localOnly('app.drain()'),
    queues: localOnlyRecord('app.queues'),
    storage: localOnlyRecord('app.storage'),
    invoke: async () => localOnly('app.invoke()'),
    db: () => localOnly('app.db()'),
    resetData: async () => localOnly('app.resetData()'),
    logs: () => localOnly('app.logs()'),
    stop: async () => undefined,
  };
}
