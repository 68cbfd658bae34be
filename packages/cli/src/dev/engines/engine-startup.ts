import { isFrameworkError, type AppDefinition } from '@framework/core';
import type { FastifyPluginAsync } from 'fastify';
import { DevServerError } from '../../errors.js';
import type { FunctionHost } from '../functions/function-host.js';
import type { DevContext, DevEngine, DevLogger } from './engine.js';
import { selectEngines, type EnginePreferences } from './index.js';

/** What each intent's engine serves, by intent then id then output (`databases` → `main` → `host`). */
export type EngineOutputs = Map<string, Readonly<Record<string, Readonly<Record<string, string>>>>>;

/**
 * The local engines of one `fw dev` run, started side by side: what they serve (outputs,
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
   * Starts the engine of each intent the app uses, all at once (their module loading, files and servers overlap: one
   * after another, an app with billing, storage and notifications paid each in turn before serving), then records
   * what they serve in selection order, so outputs, plugins and the start-up table do not depend on which was first.
   * On a failure the engines already created stay in `engines`, for the caller to stop with everything else it
   * started; the first failure in selection order is thrown.
   */
  async start(app: AppDefinition, context: DevContext, host: FunctionHost, preferences: EnginePreferences | undefined): Promise<void> {
    const { log } = context;
    const factories = await selectEngines(app, preferences);
    const debug = process.env.FW_DEV_DEBUG === '1';
    const results = await Promise.allSettled(
      factories.map(async (factory) => {
        const began = performance.now();
        const engine = await factory.create();
        this.engines.push(engine);
        try {
          const started = await engine.start(app, context);
          // Handled below once every engine started: a readiness failing meanwhile is not an unhandled rejection.
          started.ready?.catch(() => undefined);
          started.readyOutputs?.catch(() => undefined);
          if (debug) process.stderr.write(`[fw:debug] the ${factory.intent} engine started in ${(performance.now() - began).toFixed(0)} ms\n`);
          return started;
        } catch (error) {
          if (isFrameworkError(error)) throw error;
          throw new DevServerError('FW_ERR_DEV_ENGINE_START', `the ${factory.kind} ${factory.intent} engine (${factory.label}) failed to start: ${(error as Error).message}`, { cause: error });
        }
      }),
    );
    const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
    if (failed) throw failed.reason;
    factories.forEach((factory, index) => {
      const started = (results[index] as PromiseFulfilledResult<Awaited<ReturnType<DevEngine['start']>>>).value;
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
    });
  }

  /** The wait `startWaiting` began: settles when every engine is ready or the wait ran out. */
  private wait?: Promise<void>;

  /**
   * Starts the wait for the engines' `ready`, at most `timeoutMs` from now, without holding anyone: `fw dev` serves
   * meanwhile, and what needs an engine waits for it with `untilReady`. Past the wait it says which engine is late.
   */
  startWaiting(timeoutMs: number, log: DevLogger): void {
    if (this.readiness.length === 0) return;
    let timer: NodeJS.Timeout | undefined;
    this.wait = Promise.race([
      Promise.all(this.readiness).then(() => undefined),
      new Promise<void>((resolve) => {
        timer = setTimeout(resolve, timeoutMs);
        // Never what keeps the process alive.
        timer.unref();
      }),
    ]).then(() => {
      clearTimeout(timer);
      if (this.notReady.size) log.warn(`${[...this.notReady].join(', ')} not ready after ${Math.round(timeoutMs / 1000)} s; serving anyway, what needs it answers 503 ENGINE_NOT_READY until it is`);
    });
  }

  /**
   * Resolves true once every engine is ready, or false when the wait (`startWaiting`) ran out first: the caller then
   * answers 503 ENGINE_NOT_READY. Without a wait started, it answers at once.
   */
  async untilReady(): Promise<boolean> {
    if (this.notReady.size === 0) return true;
    await this.wait;
    return this.notReady.size === 0;
  }

  /** Resolves once every engine's readiness settled (ready, or failed and logged). */
  async settled(): Promise<void> {
    await Promise.all(this.readiness);
  }
}
