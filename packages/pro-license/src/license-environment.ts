import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseEnv } from 'node:util';
import { ENV } from '@framework/core/names';

/** The variable the key is read from. */
export const LICENSE_KEY_VARIABLE = ENV.licenseKey;

/**
 * Where the code runs, for the policy: `deployed` in a Lambda function of a deployed stage; `local` under `fw dev`
 * (its workers set `FW_DEV_ENDPOINT`), in tests and scripts.
 */
export type LicenseEnvironment = 'deployed' | 'local';

export function licenseEnvironment(env: Readonly<Record<string, string | undefined>> = process.env): LicenseEnvironment {
  return env['AWS_LAMBDA_FUNCTION_NAME'] && !env[ENV.devEndpoint] ? 'deployed' : 'local';
}

/**
 * The license key: `FW_LICENSE_KEY` from the environment (deployed: the stack sets it from a secret); locally, when
 * the environment has none, the project's `.env` file (`FW_PROJECT_ROOT`, else the current folder).
 */
export function readLicenseKey(env: Readonly<Record<string, string | undefined>> = process.env): string | undefined {
  const fromEnv = env[LICENSE_KEY_VARIABLE];
  if (fromEnv) return fromEnv;
  if (licenseEnvironment(env) === 'deployed') return undefined;
  const file = join(env[ENV.projectRoot] || process.cwd(), '.env');
  if (!existsSync(file)) return undefined;
  try {
    return parseEnv(readFileSync(file, 'utf8'))[LICENSE_KEY_VARIABLE] || undefined;
  } catch {
    return undefined;
  }
}
