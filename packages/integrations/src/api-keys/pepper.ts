import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import type { SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { API_KEYS_PEPPER_SECRET_ARN_ENV, ENV } from '@framework/core/names';
import { IntegrationsError } from '../errors.js';

/** The variable that carries the pepper itself (set by hand: tests, another deployment tool). */
export const PEPPER_VARIABLE = 'FW_API_KEYS_PEPPER';

/** Reads a secret's string value by ARN (Secrets Manager's `GetSecretValue`; replaceable in tests). */
export type SecretReader = (secretArn: string) => Promise<string | undefined>;

/** Where `fw dev` keeps its own pepper, under the project's `.fw/` (created on first use, readable by the owner only). */
export const DEV_PEPPER_FILE = path.join('.fw', 'integrations', 'api-keys-pepper');

const MIN_PEPPER_LENGTH = 32;

/**
 * The pepper: `FW_API_KEYS_PEPPER`; deployed, the Secrets Manager secret `@framework/infra` creates and names in
 * `FW_API_KEYS_PEPPER_SECRET_ARN` (read once per container); under `fw dev` (`FW_DEV_ENDPOINT` set) a random one
 * kept in `.fw/` of the folder fw dev runs in, so keys issued locally survive a restart. A function with none refuses
 * to hash: a key hashed with a made-up pepper could never be verified again.
 */
export async function loadPepper(env: Readonly<Record<string, string | undefined>> = process.env, cwd = process.cwd(), readSecret: SecretReader = readSecretValue): Promise<string> {
  const given = env[PEPPER_VARIABLE];
  if (given !== undefined && given !== '') return checkedPepper(given, PEPPER_VARIABLE);
  const secretArn = env[API_KEYS_PEPPER_SECRET_ARN_ENV];
  if (secretArn !== undefined && secretArn !== '') return secretPepper(secretArn, readSecret);
  if (!env[ENV.devEndpoint]) {
    throw new IntegrationsError('FW_ERR_API_KEY_PEPPER', `Neither ${PEPPER_VARIABLE} nor ${API_KEYS_PEPPER_SECRET_ARN_ENV} is set: deploy with @framework/infra (it gives the pepper secret to the functions whose code calls createApiKeys( of @framework/integrations), or set ${PEPPER_VARIABLE} to at least ${MIN_PEPPER_LENGTH} random characters`);
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

function checkedPepper(pepper: string, source: string): string {
  if (pepper.length < MIN_PEPPER_LENGTH) throw new IntegrationsError('FW_ERR_API_KEY_PEPPER', `${source} is ${pepper.length} characters; use at least ${MIN_PEPPER_LENGTH} random characters (e.g. openssl rand -base64 48)`);
  return pepper;
}

/** By secret ARN: one read per container; a failed read is forgotten, so the next request tries again. */
const secretPeppers = new Map<string, Promise<string>>();

function secretPepper(secretArn: string, readSecret: SecretReader): Promise<string> {
  let pepper = secretPeppers.get(secretArn);
  if (!pepper) {
    pepper = readSecret(secretArn).then((value) => checkedPepper(value ?? '', `The pepper secret ${secretArn}`));
    secretPeppers.set(secretArn, pepper);
    pepper.catch(() => secretPeppers.delete(secretArn));
  }
  return pepper;
}

let secretsClient: Pick<SecretsManagerClient, 'send'> | undefined;

/** `GetSecretValue` with the SDK loaded on first use: functions without API keys never load it. */
async function readSecretValue(secretArn: string): Promise<string | undefined> {
  const sdk = await import('@aws-sdk/client-secrets-manager');
  secretsClient ??= new sdk.SecretsManagerClient({});
  const result = await secretsClient.send(new sdk.GetSecretValueCommand({ SecretId: secretArn }));
  return result.SecretString;
}
