import { Worker } from 'node:worker_threads';
import type { AppDefinition, HandlerInfo } from '@framework/core';
import type { AppBundle, FunctionBundle } from '@framework/infra/bundling';
import { workerExecArgv } from '../dev/functions/function-host.js';
import { compiledEntry } from '../package-files.js';

/** What the worker is given: where the project is and which stage to bundle. */
export interface SynthInputsRequest {
  readonly rootDir: string;
  readonly stage: string;
}

/** What the worker posts back. */
export type SynthInputsResult =
  | { readonly ok: true; readonly bundle: AppBundle; readonly handlerInfo: ReadonlyMap<string, HandlerInfo | undefined> }
  | { readonly ok: false; readonly message: string };

/** The bundles and declared scopes `FrameworkStack` would otherwise compute itself (its `bundle` and `handlerInfo` props). */
export interface SynthInputs {
  readonly bundle: AppBundle;
  readonly handlerInfo: ReadonlyMap<string, HandlerInfo | undefined>;
}

/** The compiled worker (from sources, the bundle or `lib/`: always `lib/`'s file). */
const workerEntry = (): URL => compiledEntry('cloud/synth-inputs-worker.js');

/**
 * Starts bundling the app's functions and reading their declared scopes in a worker thread, and resolves to both;
 * the caller loads aws-cdk-lib meanwhile. In a profile of a 300-route `fw synth` these were about as long as the
 * module loading they now overlap (esbuild's two builds, the child process importing every bundle: 15 % of the
 * wall time; module loading 14 %). The worker builds exactly what `bundleApp(app)` and `readHandlerInfo` build in
 * process (same functions, same defaults). Resolves to undefined when the worker failed, or when its model does not
 * have the same functions as `app`: the caller then does the work in process, which reports any error as before.
 */
export function startSynthInputs(app: AppDefinition): Promise<SynthInputs | undefined> {
  return new Promise((resolve) => {
    let worker: Worker;
    try {
      const request: SynthInputsRequest = { rootDir: app.rootDir, stage: app.stage };
      worker = new Worker(workerEntry(), { workerData: request, execArgv: workerExecArgv() });
    } catch {
      resolve(undefined);
      return;
    }
    worker.once('message', (result: SynthInputsResult) => {
      resolve(result.ok ? relink(app, result.bundle, result.handlerInfo) : undefined);
      void worker.terminate();
    });
    worker.once('error', () => resolve(undefined));
    worker.once('exit', () => resolve(undefined));
  });
}

/** The worker's bundle with this thread's function units (its own are structured clones of the same model). */
function relink(app: AppDefinition, bundle: AppBundle, handlerInfo: ReadonlyMap<string, HandlerInfo | undefined>): SynthInputs | undefined {
  const units = new Map(app.units.map((unit) => [unit.functionName, unit]));
  if (units.size !== bundle.functions.size) return undefined;
  const functions = new Map<string, FunctionBundle>();
  for (const [name, fn] of bundle.functions) {
    const unit = units.get(name);
    if (!unit || unit.file !== fn.unit.file) return undefined;
    functions.set(name, { ...fn, unit });
  }
  return { bundle: { ...bundle, functions }, handlerInfo };
}
