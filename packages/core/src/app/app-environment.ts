import { ENV, bucketEnv, cacheEnv, databaseEnv, queueEnv } from '../environment/variables.js';
import { idempotencyTableName } from '../naming/unit-names.js';
import type { EnvValue } from './app-definition.js';

/** What the environment of an app is built from. */
export interface EnvironmentInputs {
  readonly project: string;
  readonly stage: string;
  readonly region: string;
  readonly logLevel: string;
  readonly databases: readonly { id: string }[];
  readonly storage: readonly { id: string; maxUploadBytes: number; allowedContentTypes?: readonly string[]; inlineActiveContent?: boolean }[];
  readonly queues: readonly { id: string }[];
  readonly caches: readonly { id: string }[];
  readonly auth: boolean;
}

/**
 * The variables every function of the app gets. Fixed values are final; outputs are filled in by the interpreter
 * (local engine address by `fw dev`, resource attribute by the CDK constructs), so both inject the same names.
 */
export function buildEnvironment(app: EnvironmentInputs): Record<string, EnvValue> {
  const fixed = (value: string): EnvValue => ({ kind: 'static', value });
  const out = (intent: Extract<EnvValue, { kind: 'output' }>['intent'], id: string, output: string): EnvValue => ({ kind: 'output', intent, id, output });
  const env: Record<string, EnvValue> = {
    [ENV.project]: fixed(app.project),
    [ENV.stage]: fixed(app.stage),
    [ENV.region]: fixed(app.region),
    [ENV.logLevel]: fixed(app.logLevel),
    // The stage's table name, the same value locally and deployed (the table is created with exactly this name).
    [ENV.idempotencyTable]: fixed(idempotencyTableName(app.project, app.stage)),
  };
  for (const { id } of app.databases) {
    const v = databaseEnv(id);
    env[v.host] = out('databases', id, 'host');
    env[v.port] = out('databases', id, 'port');
    env[v.name] = out('databases', id, 'name');
    env[v.secretArn] = out('databases', id, 'secretArn');
  }
  for (const { id, maxUploadBytes, allowedContentTypes, inlineActiveContent } of app.storage) {
    const v = bucketEnv(id);
    env[v.bucket] = out('storage', id, 'bucket');
    env[v.publicUrl] = out('storage', id, 'publicUrl');
    // Limits are fixed values: the storage client reads them to refuse a presign the intent does not allow.
    env[v.maxUploadBytes] = fixed(String(maxUploadBytes));
    env[v.contentTypes] = fixed((allowedContentTypes ?? []).join(','));
    // The serving policy of presigned downloads: the deployed client sets S3's response overrides from it.
    env[v.inlineActiveContent] = fixed(inlineActiveContent ? 'true' : 'false');
  }
  for (const { id } of app.queues) env[queueEnv(id).url] = out('queues', id, 'url');
  for (const { id } of app.caches) env[cacheEnv(id).endpoint] = out('caches', id, 'endpoint');
  if (app.auth) {
    env[ENV.authIssuer] = out('auth', 'default', 'issuer');
    env[ENV.authAudience] = out('auth', 'default', 'audience');
    env[ENV.authUserPoolId] = out('auth', 'default', 'userPoolId');
    env[ENV.authResourceServer] = out('auth', 'default', 'resourceServer');
  }
  return env;
}
