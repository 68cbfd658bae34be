import { DatabaseSecretError } from '../errors.js';

/** The fields of an RDS-managed (or CDK-generated) database secret this package uses. */
export interface DatabaseSecret {
  readonly username: string;
  readonly password: string;
}

/** Per execution environment: one read per secret, shared by every pool and invocation. */
const cache = new Map<string, Promise<DatabaseSecret>>();

/** Reads (once) the secret holding the database credentials. The SDK is loaded only here, on first use. */
export function readDatabaseSecret(secretArn: string): Promise<DatabaseSecret> {
  let pending = cache.get(secretArn);
  if (!pending) {
    pending = fetchSecret(secretArn);
    cache.set(secretArn, pending);
    // A failed read must not be cached: the next connection tries again.
    pending.catch(() => cache.delete(secretArn));
  }
  return pending;
}

/** Forget a cached secret (after the server refused the password: it was probably rotated). */
export function forgetDatabaseSecret(secretArn?: string): void {
  if (secretArn === undefined) cache.clear();
  else cache.delete(secretArn);
}

async function fetchSecret(secretArn: string): Promise<DatabaseSecret> {
  const { SecretsManagerClient, GetSecretValueCommand } = await import('@aws-sdk/client-secrets-manager');
  // The ARN names the secret's region; a secret in another region than the function's still resolves.
  const region = /^arn:[^:]+:secretsmanager:([^:]+):/.exec(secretArn)?.[1];
  const client = new SecretsManagerClient(region ? { region } : {});
  let text: string | undefined;
  try {
    text = (await client.send(new GetSecretValueCommand({ SecretId: secretArn }))).SecretString;
  } catch (error) {
    throw new DatabaseSecretError(`Could not read the database secret ${secretArn}: ${(error as Error).message}. Check that the function's role may call secretsmanager:GetSecretValue on it.`, error);
  } finally {
    client.destroy();
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text ?? '');
  } catch (error) {
    throw new DatabaseSecretError(`The database secret ${secretArn} is not JSON; expected { "username": ..., "password": ... }.`, error);
  }
  const { username, password } = (parsed ?? {}) as Record<string, unknown>;
  if (typeof username !== 'string' || typeof password !== 'string') {
    throw new DatabaseSecretError(`The database secret ${secretArn} has no string "username" and "password" fields.`);
  }
  return { username, password };
}
