import type * as AiSdk from 'ai';

let loading: Promise<typeof AiSdk> | undefined;

/**
 * The `ai` SDK, loaded at the first call that needs it (a model call, an agent run, an answer, a schema's
 * conversion), once per process. Importing this package does not load it: the SDK costs one to two seconds of import
 * on a loaded machine, and `fw dev` preloads the app's packages into every function's worker, most of which never
 * call a model. Everything else in the package imports only the SDK's types (`import type`).
 */
export function loadAiSdk(): Promise<typeof AiSdk> {
  loading ??= import('ai');
  return loading;
}
