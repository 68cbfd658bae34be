import { isFrameworkError, type AppDefinition } from '@framework/core';
import type { FastifyPluginAsync } from 'fastify';
import { DevServerError } from '../../errors.js';
import type { FunctionHost } from '../functions/function-host.js';
import type { DevContext, DevEngine, DevLogger } from './engine.js';
import { selectEngines, type EnginePreferences } from './index.js';

/** What each intent's engine serves, by intent then id then output (`databases` → `main` → `host`). */
export type EngineOutputs = Map<string, Readonly<Record<string, Readonly<Record<string, string>>>>>;

/**
 * The local engines of one `fw dev` run, started one after another in selection order: what they serve (outputs,
 * variables, HTTP plugins, worker services, start-up table lines) and which are still getting ready.
 */
export class EngineStartup {
  /** Every engine created, started or not (all are stopped by `stop`). */
  readonly engines: DevEngine[] = [];
  readonly outputs: EngineOutputs = new Map();
  /** What functions get: `outputs`, with an engine's `readyOutputs` in place of its own once it is ready. */
  readonly functionOutputs: EngineOutputs = new Map();
  /** Variables the engines add for functions beyond the app model's (e.g. the storage engine's token). */
  readonly env: Record<string, string> = {};
  /** The engines' own HTTP routes, registered on the dev server. */
  readonly plugins: FastifyPluginAsync[] = [];
  /** The engines' lines of the start-up table. */
  readonly summaries: string[] = [];
  /** Engines still getting ready (a database starting, its migrations running): no handler runs before they are. */
  readonly notReady = new Set<string>();
  private readonly readiness: Promise<void>[] = [];

  /**
   * Starts the engine of each intent the app uses. On a failure the engines already created stay in `engines`, for
   * the caller to stop with everything else it started.
   */
  async start(app: AppDefinition, context: DevContext, host: FunctionHost, preferences: EnginePreferences | undefined): Promise<void> {
    const { log } = context;
    for (const factory of await selectEngines(app, preferences)) {
      const engine = await factory.create();
      this.engines.push(engine);
      try {
        const started = await engine.start(app, context);
        this.outputs.set(factory.intent, started.outputs);
        this.functionOutputs.set(factory.intent, started.outputs);
        Object.assign(this.env, started.env);
        if (started.plugin) this.plugins.push(started.plugin);
        for (const [name, service] of Object.entries(started.workerServices ?? {})) host.provide(name, service);
        for (const line of started.summary ?? []) this.summaries.push(`${factory.intent.padEnd(11)} ${factory.kind.padEnd(9)} ${line}`);
        if (!started.summary?.length) this.summaries.push(`${factory.intent.padEnd(11)} ${factory.kind.padEnd(9)} ${factory.label}`);
        if (started.ready) {
          const name = `the ${factory.intent} engine (${factory.label})`;
          this.notReady.add(name);
          const direct = started.readyOutputs?.then((outputs) => outputs && this.functionOutputs.set(factory.intent, outputs));
          this.readiness.push(
            Promise.all([started.ready, direct])
              .then(() => undefined)
              .catch((error: Error) => log.error(`${name} did not get ready: ${error.message}`))
              .finally(() => this.notReady.delete(name)),
          );
        }
      } catch (error) {
        if (isFrameworkError(error)) throw error;
        throw new DevServerError('FW_ERR_DEV_ENGINE_START', `the ${factory.kind} ${factory.intent} engine (${factory.label}) failed to start: ${(error as Error).message}`, { cause: error });
      }
    }
  }

  /** Waits for the engines' `ready` (at most `timeoutMs`), so that serving means the databases are up and migrated. */
  async waitUntilReady(timeoutMs: number, log: DevLogger): Promise<void> {
    if (this.readiness.length === 0) return;
    let timer: NodeJS.Timeout | undefined;
    const timedOut = await Promise.race([
      Promise.all(this.readiness).then(() => false),
      new Promise<boolean>((resolve) => {
        timer = setTimeout(() => resolve(true), timeoutMs);
      }),
    ]);
    clearTimeout(timer);
    if (timedOut && this.notReady.size) log.warn(`${[...this.notReady].join(', ')} not ready after ${Math.round(timeoutMs / 1000)} s; serving anyway, routes answer 503 ENGINE_NOT_READY until it is`);
  }
}
