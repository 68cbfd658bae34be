import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { ENV } from '@framework/core/names';
import { IntegrationsError } from '../errors.js';

/** The variable that carries the pepper into a deployed function (from Secrets Manager or SSM at deploy time). */
export const PEPPER_VARIABLE = 'FW_API_KEYS_PEPPER';

/** Where `fw dev` keeps its own pepper, under the project's `.fw/` (created on first use, readable by the owner only). */
export const DEV_PEPPER_FILE = path.join('.fw', 'integrations', 'api-keys-pepper');

const MIN_PEPPER_LENGTH = 32;

/**
 * The pepper: `FW_API_KEYS_PEPPER`, or under `fw dev` (`FW_DEV_ENDPOINT` set) a random one kept in `.fw/` of the
 * folder fw dev runs in, so keys issued locally survive a restart. A deployed function without one refuses to hash:
 * a key hashed with a made-up pepper could never be verified again.
 */
export function loadPepper(env: Readonly<Record<string, string | undefined>> = process.env, cwd = process.cwd()): string {
  const given = env[PEPPER_VARIABLE];
  if (given !== undefined && given !== '') {
    if (given.length < MIN_PEPPER_LENGTH) throw new IntegrationsError('FW_ERR_API_KEY_PEPPER', `${PEPPER_VARIABLE} is ${given.length} characters; use at least ${MIN_PEPPER_LENGTH} random characters (e.g. openssl rand -base64 48)`);
    return given;
  }
  if (!env[ENV.devEndpoint]) {
    throw new IntegrationsError('FW_ERR_API_KEY_PEPPER', `${PEPPER_VARIABLE} is not set: deploy the pepper from Secrets Manager or SSM into the functions that issue or verify API keys`);
  }
  const file = path.join(cwd, DEV_PEPPER_FILE);
  try {
    return readFileSync(file, 'utf8').trim();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  mkdirSync(path.dirname(file), { recursive: true });
  try {
    // `wx`: two workers starting at once write one pepper; the second reads the first's.
    writeFileSync(file, randomBytes(48).toString('base64url'), { flag: 'wx', mode: 0o600 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  return readFileSync(file, 'utf8').trim();
}
