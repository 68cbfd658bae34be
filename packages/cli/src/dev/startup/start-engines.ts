import { randomBytes } from 'node:crypto';
import { ENV, type AppDefinition } from '@framework/core';
import type { DevContext } from '../engines/engine.js';
import type { EngineStartup } from '../engines/engine-startup.js';
import type { EnginePreferences } from '../engines/index.js';
import type { FunctionHost } from '../functions/function-host.js';
import { fillEnvironment, localAuthOutputs } from './engine-environment.js';

/** The engines started and what their outputs make of the app model's variables. */
export interface StartedEngines {
  /** Every variable with its local value, as engines serve them to clients outside functions (state.json). */
  readonly environment: Record<string, string>;
  /** service.auth's per-run secret for the user admin endpoint (kept out of the state file, as the storage one). */
  readonly devAuthToken: string;
  /** What functions get once every engine is ready (an engine's `readyOutputs` in place of its own). */
  readyFunctionEnvironment(): Record<string, string>;
}

/**
 * Engine start-up: the engine of every intent the app uses (into `startup`, which keeps them for the caller to stop
 * even on a failure), the dev server's own `auth` outputs, and the variables they give functions.
 */
export async function startEngines(startup: EngineStartup, app: AppDefinition, context: DevContext, host: FunctionHost, preferences: EnginePreferences | undefined): Promise<StartedEngines> {
  await startup.start(app, context, host, preferences);
  const auth = localAuthOutputs(app, context.baseUrl);
  startup.outputs.set('auth', auth);
  startup.functionOutputs.set('auth', auth);
  const devAuthToken = randomBytes(32).toString('base64url');
  const withToken = (outputs: EngineStartup['outputs']) => ({ ...fillEnvironment(app, outputs, context.baseUrl), ...startup.env, [ENV.devAuthToken]: devAuthToken });
  return { environment: withToken(startup.outputs), devAuthToken, readyFunctionEnvironment: () => withToken(startup.functionOutputs) };
}
