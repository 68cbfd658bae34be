import type { AppDefinition } from '../app/app-definition.js';
import { ENV } from './variables.js';

/**
 * The environment a child process imports an app's handler modules with, outside Lambda and outside `fw dev`, to read
 * what they declare (infra's handler info at synth, `fw openapi`'s schemas). Only the app's static variables: a
 * module that reads a deployed output at import time gets nothing rather than a wrong value, and `HOME` points at a
 * scratch folder so a module cannot read the developer's credentials or caches.
 */
export function moduleLoadEnvironment(app: AppDefinition, home: string): Record<string, string> {
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '',
    HOME: home,
    NODE_ENV: 'production',
    AWS_REGION: app.region,
    AWS_EC2_METADATA_DISABLED: 'true',
    [ENV.project]: app.project,
    [ENV.stage]: app.stage,
    [ENV.region]: app.region,
  };
  for (const [key, value] of Object.entries(app.environment)) if (value.kind === 'static') env[key] = value.value;
  return env;
}
