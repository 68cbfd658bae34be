import type { AppDefinition, OutputValues } from '@framework/core';
import type { DevContext, DevEngine, EngineFactory, EngineKind, EngineStart } from './engine.js';
import { nativeBackend, pgliteBackend, postgresCanReach, type PostgresBackend, type RunningPostgres } from './postgres-backends.js';
import { DeferredPort, findOnPath } from './ports.js';

/**
 * The database engine: each database intent gets a port on the dev server's address right away (so the other
 * engines and the handler builds start meanwhile), and connections to it wait for the server behind it, which starts
 * in the background. `ready` settles once the server is up and the pending migrations are applied: until then the
 * dev server holds the requests whose handlers may connect to it (and the port holds every connection). Functions loaded after that get the server's own port (`readyOutputs`); the
 * published port keeps forwarding for other clients (`fw migrate`, a SQL client). Outputs, the same keys as the deployed database's (so `@framework/data` connects alike): `host` 127.0.0.1, `port`, `name` (the database name), `secretArn`
 * `local` (user `postgres`, no password, no TLS).
 *
 * Backends are tried in order: the native engine uses the `postgres` on PATH and falls back to PGlite (with a
 * warning) when that fails to start; the embedded engine is PGlite only.
 */
export class PostgresEngine implements DevEngine {
  readonly intent = 'databases' as const;
  private readonly proxies = new Map<string, DeferredPort>();
  private running?: Promise<RunningPostgres | undefined>;
  /** The backend that actually serves (after fallbacks), once started. */
  description = 'starting';
  private databaseNames = new Map<string, string>();
  private host = '127.0.0.1';

  constructor(
    readonly kind: EngineKind,
    private readonly backends: readonly PostgresBackend[],
  ) {}

  async start(app: AppDefinition, context: DevContext): Promise<EngineStart<'databases'>> {
    const outputs: Record<string, OutputValues<'databases'>> = {};
    this.host = context.host;
    for (const database of app.databases) {
      this.databaseNames.set(database.id, database.databaseName);
      const proxy = await DeferredPort.listen(context.host);
      this.proxies.set(database.id, proxy);
      outputs[database.id] = { host: context.host, port: String(proxy.port), name: database.databaseName, secretArn: 'local' };
    }
    this.running = this.startBackend(app, context);
    for (const [id, proxy] of this.proxies) {
      proxy.forwardTo(
        this.running.then((r) => {
          const port = r?.ports.get(id);
          if (port === undefined) throw new Error(`database ${id} did not start`);
          return port;
        }),
      );
    }
    const summary = app.databases.map((d) => `${d.id}: postgres://postgres@${context.host}:${outputs[d.id]!.port}/${d.databaseName} (${this.backends.map((b) => b.label).join(', else ')})`);
    // Functions loaded once the server is up talk to it directly: a query then costs no copy through the proxy.
    const readyOutputs = this.running.then((running) => {
      if (!running) return undefined;
      const direct: Record<string, Record<string, string>> = {};
      for (const [id, published] of Object.entries(outputs)) {
        const port = running.ports.get(id);
        if (port === undefined) return undefined;
        direct[id] = { ...published, port: String(port) };
      }
      return direct;
    });
    // The dev console's Data tab (loaded with pg, as the migrations are, only for an app with a database).
    const { databaseConsolePlugin } = await import('./database-console.js');
    const plugin = databaseConsolePlugin({ databases: () => context.currentApp().databases, endpoint: async (id) => (await this.endpoints())?.get(id), rootDir: context.rootDir });
    // Ready once the server is up and the pending migrations are applied (or every backend failed, logged).
    return { outputs, summary, plugin, ready: this.running.then(() => undefined), readyOutputs };
  }

  /**
   * Where each database answers once ready, by id: the server's own port (not the forwarding one), for a test
   * harness that snapshots and resets it. Undefined when no backend started.
   */
  async endpoints(): Promise<Map<string, { host: string; port: number; database: string }> | undefined> {
    const running = await this.running;
    if (!running) return undefined;
    const endpoints = new Map<string, { host: string; port: number; database: string }>();
    for (const [id, port] of running.ports) endpoints.set(id, { host: this.host, port, database: this.databaseNames.get(id) ?? id });
    return endpoints;
  }

  /**
   * Where each database answers at once, by id: the dev server's forwarding port, which holds a connection until the
   * database is ready (what functions get first). For a test harness that must not wait for the database to boot.
   */
  publishedEndpoints(): Map<string, { host: string; port: number; database: string }> {
    const endpoints = new Map<string, { host: string; port: number; database: string }>();
    for (const [id, proxy] of this.proxies) endpoints.set(id, { host: this.host, port: proxy.port, database: this.databaseNames.get(id) ?? id });
    return endpoints;
  }

  /** Resolves when the databases accept connections (or every backend failed: undefined). */
  async ready(): Promise<boolean> {
    return (await this.running) !== undefined;
  }

  private async startBackend(app: AppDefinition, context: DevContext): Promise<RunningPostgres | undefined> {
    for (const backend of this.backends) {
      try {
        const started = Date.now();
        const running = await backend.start(app.databases, context.dataDir, context.host, context.log);
        this.description = running.description;
        context.log.info(`databases: ${running.description} ready in ${Date.now() - started} ms`);
        // Before the proxies let functions in: they find the schema their migrations describe (@framework/data,
        // loaded only for an app with a database).
        const { applyPendingMigrations } = await import('./database-migrations.js');
        await applyPendingMigrations(app.databases, running.ports, { host: context.host, rootDir: context.rootDir, log: context.log });
        return running;
      } catch (error) {
        const last = backend === this.backends[this.backends.length - 1];
        context.log[last ? 'error' : 'warn'](`databases: ${backend.label} failed to start: ${(error as Error).message}${last ? '' : '; trying the next engine'}`);
      }
    }
    this.description = 'failed';
    return undefined;
  }

  async stop(): Promise<void> {
    await Promise.all([...this.proxies.values()].map((p) => p.close()));
    const running = await this.running;
    await running?.stop();
  }
}

export const embeddedDatabases: EngineFactory = {
  intent: 'databases',
  kind: 'embedded',
  label: 'PGlite',
  isAvailable: async () => true,
  isNeeded: (app) => app.databases.length > 0,
  create: () => new PostgresEngine('embedded', [pgliteBackend]),
};

export const nativeDatabases: EngineFactory = {
  intent: 'databases',
  kind: 'native',
  label: 'postgres on PATH',
  isAvailable: async (app) => findOnPath('postgres') !== undefined && findOnPath('initdb') !== undefined && postgresCanReach(app.rootDir),
  isNeeded: (app) => app.databases.length > 0,
  create: () => new PostgresEngine('native', [nativeBackend, pgliteBackend]),
};
