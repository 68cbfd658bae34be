import type * as AiSdk from './ai-sdk-parts.js';

let loading: Promise<typeof AiSdk> | undefined;

/**
 * The `ai` SDK, loaded at the first call that needs it (a model call, an agent run, an answer, a schema's
 * conversion), once per process. Importing this package does not load it: the SDK costs one to two seconds of import
 * on a loaded machine, and `fw dev` preloads the app's packages into every function's worker, most of which never
 * call a model. Everything else in the package imports only the SDK's types (`import type`). The parts it calls come
 * through `ai-sdk-parts.ts`, so a bundle keeps only those.
 */
export function loadAiSdk(): Promise<typeof AiSdk> {
  loading ??= import('./ai-sdk-parts.js');
  return loading;
}
