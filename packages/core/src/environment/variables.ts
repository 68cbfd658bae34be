/**
 * The one module that names the environment variables carrying the app's identity and each intent's outputs into
 * functions. The dev server and the CDK constructs inject exactly these (values differ: local engines vs cloud
 * resources); the runtime and the other packages read them through these functions.
 */

/** Variables every function gets. */
export const ENV = {
  /** Project name from base config. */
  project: 'FW_PROJECT',
  /** Stage being run or deployed (`dev`, `prod`, ...). */
  stage: 'FW_STAGE',
  /** Region from base config. */
  region: 'FW_REGION',
  /** Minimum log level: debug, info, warn, error. */
  logLevel: 'LOG_LEVEL',
  /** DynamoDB table of the idempotency and saga stores: `<project>-<stage>-idempotency`, locally and deployed. */
  idempotencyTable: 'FW_IDEMPOTENCY_TABLE',
  /** JWT issuer URL of the auth intent (Cognito user pool locally the dev server). */
  authIssuer: 'FW_AUTH_ISSUER',
  /** Accepted audiences (app client ids), comma-separated; in `fw dev` the local ids of `localAppClientId`. */
  authAudience: 'FW_AUTH_AUDIENCE',
  /** Cognito user pool id (`local` in development). */
  authUserPoolId: 'FW_AUTH_USER_POOL_ID',
  /**
   * Identifier of the app's resource server: access tokens carry its scopes as `<identifier>/<scope>`, and the
   * runtime's scope check accepts that prefix and no other (the project name unless the stack names another).
   */
  authResourceServer: 'FW_AUTH_RESOURCE_SERVER',
  /**
   * Local development only: base URL of the dev server, used by `invoke` and the queue client instead of the cloud.
   * Never set in a deployed function.
   */
  devEndpoint: 'FW_DEV_ENDPOINT',
  /**
   * Local development only: the per-run secret the storage client presents to the dev server's storage engine (its
   * object API answers no one else). Never set in a deployed function.
   */
  devStorageToken: 'FW_DEV_STORAGE_TOKEN',
} as const;

/**
 * Variables of the Cognito pre-token-generation trigger (`@framework/auth/pre-token-generation`) only: no app function
 * gets them.
 */
export const AUTH_TRIGGER_ENV = {
  /** JSON `{ roles: { <role>: [scope] }, clients: { <app client name>: [scope] } }`, from `config/security.ts`. */
  scopeRules: 'FW_AUTH_SCOPE_RULES',
  /** The resource server's identifier, the prefix of custom scopes in tokens (the same variable functions get). */
  resourceServer: ENV.authResourceServer,
} as const;

/** Variables the dev server sets that deployed functions never get (excluded when comparing both). */
export const DEV_ONLY_ENV: readonly string[] = [ENV.devEndpoint, ENV.devStorageToken];

/** `main-db` → `MAIN_DB`: how an intent id appears inside a variable name. */
export function envToken(id: string): string {
  return id.replace(/[^A-Za-z0-9]+/g, '_').toUpperCase();
}

/** Outputs of a database intent. */
export function databaseEnv(id: string) {
  const t = envToken(id);
  return {
    host: `FW_DB_${t}_HOST`,
    port: `FW_DB_${t}_PORT`,
    name: `FW_DB_${t}_NAME`,
    /** Deployed: ARN of the Secrets Manager secret holding `username` and `password`. Locally: `local`. */
    secretArn: `FW_DB_${t}_SECRET_ARN`,
  } as const;
}

/** Outputs of a storage (bucket) intent. */
export function bucketEnv(id: string) {
  const t = envToken(id);
  return {
    bucket: `FW_STORAGE_${t}_BUCKET`,
    /** Base URL objects are served from (the CDN when enabled, else the bucket's regional endpoint / the dev server). */
    publicUrl: `FW_STORAGE_${t}_URL`,
    /** The intent's `maxUploadBytes` (fixed value), so a function's presigned uploads honor it deployed too. */
    maxUploadBytes: `FW_STORAGE_${t}_MAX_UPLOAD_BYTES`,
    /** The intent's `allowedContentTypes`, comma-separated; empty for any (fixed value). */
    contentTypes: `FW_STORAGE_${t}_CONTENT_TYPES`,
    /** The intent's `inlineActiveContent`, `true` or `false` (fixed value). */
    inlineActiveContent: `FW_STORAGE_${t}_INLINE_ACTIVE_CONTENT`,
  } as const;
}

/** Outputs of a queue intent (any function may send to any queue of the app). */
export function queueEnv(id: string) {
  return { url: `FW_QUEUE_${envToken(id)}_URL` } as const;
}

/** Outputs of a cache intent. */
export function cacheEnv(id: string) {
  return { endpoint: `FW_CACHE_${envToken(id)}_ENDPOINT` } as const;
}
