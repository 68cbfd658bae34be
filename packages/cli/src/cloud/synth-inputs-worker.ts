/**
 * Worker thread of `fw synth` (see synth-inputs.ts): loads the app model, bundles every function and reads the
 * handlers' declared scopes, with `@framework/infra/bundling` only (no aws-cdk-lib), and posts both back. Any failure
 * is posted as `ok: false`: the main thread then does the same work in process, where the error keeps its class.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { bundleAppAsync, readHandlerInfoAsync } from '@framework/infra/bundling';
import { loadApp } from '../app-loader/index.js';
import type { SynthInputsRequest, SynthInputsResult } from './synth-inputs.js';

const { rootDir, stage } = workerData as SynthInputsRequest;
let result: SynthInputsResult;
try {
  const app = await loadApp(rootDir, stage);
  // esbuild's builds at once, then the bundles loaded by one process per core: the same outputs as in process.
  const bundle = await bundleAppAsync(app);
  result = { ok: true, bundle, handlerInfo: await readHandlerInfoAsync(app, bundle) };
} catch (error) {
  result = { ok: false, message: String((error as Error)?.message ?? error) };
}
parentPort!.postMessage(result);
