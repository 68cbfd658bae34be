import { databaseEnv, ENV } from '@framework/core/names';
import { existsSync, readFileSync } from 'node:fs';
import { rootCertificates } from 'node:tls';
import type { ConnectionOptions } from 'node:tls';
import type { PoolConfig } from 'pg';
import { DatabaseConfigError } from '../errors.js';
import { readDatabaseSecret } from './database-secret.js';

/** `FW_DB_<ID>_SECRET_ARN` locally: user `postgres`, no password, no TLS (the dev server's engines). */
export const LOCAL_SECRET = 'local';

/** Whether the code runs in a deployed Lambda function (not under `fw dev`, which sets `FW_DEV_ENDPOINT`). */
export function isDeployedLambda(env: NodeJS.ProcessEnv = process.env): boolean {
  return Boolean(env['AWS_LAMBDA_FUNCTION_NAME']) && !env[ENV.devEndpoint];
}

/** The ids' variable tokens of every database whose variables are set (`FW_DB_MAIN_HOST` → `MAIN`). */
export function databaseTokensInEnv(env: NodeJS.ProcessEnv = process.env): string[] {
  return Object.keys(env)
    .map((key) => /^FW_DB_([A-Z0-9_]+)_HOST$/.exec(key)?.[1])
    .filter((token): token is string => token !== undefined)
    .sort();
}

/**
 * `pg` pool settings for a database intent, from the variables core names (`databaseEnv(id)`). Deployed: TLS with
 * certificate verification, user and password from the Secrets Manager secret (read on first connect, cached for
 * the execution environment). Locally (`SECRET_ARN=local`): user `postgres`, no password, no TLS.
 */
export async function connectionSettings(databaseId: string, env: NodeJS.ProcessEnv = process.env): Promise<PoolConfig> {
  const names = databaseEnv(databaseId);
  const host = env[names.host];
  const portText = env[names.port];
  const database = env[names.name];
  const secret = env[names.secretArn];
  const missing = [!host && names.host, !portText && names.port, !database && names.name, !secret && names.secretArn].filter(Boolean);
  if (missing.length > 0) {
    throw new DatabaseConfigError(
      `Database "${databaseId}": ${missing.join(', ')} ${missing.length > 1 ? 'are' : 'is'} not set. Declare the database in ` +
        `infrastructure.databases of fw.config.ts; fw dev and fw deploy set these variables in every function.`,
    );
  }
  const port = Number(portText);
  if (!Number.isInteger(port) || port <= 0 || port > 65535) {
    throw new DatabaseConfigError(`Database "${databaseId}": ${names.port}=${JSON.stringify(portText)} is not a port number.`);
  }
  if (secret === LOCAL_SECRET) {
    return { host, port, database, user: 'postgres', ssl: false };
  }
  const secretArn = secret as string;
  const { username } = await readDatabaseSecret(secretArn);
  return {
    host,
    port,
    database,
    user: username,
    // pg asks on every new connection: the cached secret, refetched after a failed login (rotation).
    password: async () => (await readDatabaseSecret(secretArn)).password,
    ssl: tlsSettings(env),
  };
}

/** Where the Lambda Node.js runtimes keep a CA bundle that includes the Amazon RDS certificate authorities. */
export const LAMBDA_CA_BUNDLE = '/var/runtime/ca-cert.pem';

/**
 * TLS with certificate verification. RDS and Aurora present certificates of the Amazon RDS CAs, which Node's default
 * store lacks; since the Node.js 20 runtime Lambda no longer adds them by itself. When `NODE_EXTRA_CA_CERTS` is not
 * set, the runtime's bundle is added to Node's roots here, so a deployment that forgets the variable still verifies.
 */
export function tlsSettings(env: NodeJS.ProcessEnv = process.env, bundle: string = LAMBDA_CA_BUNDLE): ConnectionOptions {
  if (!env['NODE_EXTRA_CA_CERTS'] && existsSync(bundle)) {
    return { rejectUnauthorized: true, ca: [...rootCertificates, readFileSync(bundle, 'utf8')] };
  }
  return { rejectUnauthorized: true };
}
