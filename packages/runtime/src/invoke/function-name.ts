import { ENV, standaloneFunctionName } from '@framework/core/names';
import { RuntimeError } from '../errors.js';

/** An environment variable the runtime cannot work without. */
export function requireEnv(name: string, why: string): string {
  const value = process.env[name];
  if (value === undefined || value === '') {
    throw new RuntimeError('FW_ERR_MISSING_ENV', `${name} is not set, so ${why}. The framework sets it in every function it deploys and in \`fw dev\`; when calling handlers yourself (tests, scripts), set it first.`);
  }
  return value;
}

/** The deployed name of standalone function `id` in this app and stage (computed by core's naming module). */
export function deployedFunctionName(id: string): string {
  const project = requireEnv(ENV.project, `the function "${id}" cannot be named`);
  const stage = requireEnv(ENV.stage, `the function "${id}" cannot be named`);
  return standaloneFunctionName(project, stage, id);
}

/** The dev server's base URL when running under `fw dev`; deployed functions never have it. */
export function devEndpoint(): string | undefined {
  const value = process.env[ENV.devEndpoint];
  return value ? value.replace(/\/+$/, '') : undefined;
}
