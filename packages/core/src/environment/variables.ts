/**
 * The one module that names the environment variables carrying the app's identity and each intent's outputs into
 * functions. The dev server and the CDK constructs inject exactly these (values differ: local engines vs cloud
 * resources); the runtime and the other packages read them through these functions.
 */

/** The CDK context key `fw synth`/`fw deploy` carry the license key in; the stack sets it as `ENV.licenseKey`. */
export const LICENSE_KEY_CONTEXT = '@framework/infra:licenseKey';

/*
 * Single constants for the names every function reads and those the tables below repeat: esbuild keeps an object
 * literal whole once one of its properties is read, and a property read keeps the table that makes it, so the runtime
 * reads these and a function's bundle carries the few names it uses, not every package's (about 0.9 KB of the minimal
 * route). `ENV` holds the same values under its keys.
 */
/** `ENV.project`. */
export const PROJECT_VAR = 'FW_PROJECT';
/** `ENV.stage`. */
export const STAGE_VAR = 'FW_STAGE';
/** `ENV.region`. */
export const REGION_VAR = 'FW_REGION';
/** `ENV.logLevel`. */
export const LOG_LEVEL_VAR = 'LOG_LEVEL';
/** `ENV.authResourceServer`. */
export const AUTH_RESOURCE_SERVER_VAR = 'FW_AUTH_RESOURCE_SERVER';
/** `ENV.validateResponses`. */
export const VALIDATE_RESPONSES_VAR = 'FW_VALIDATE_RESPONSES';
/** `ENV.devEndpoint`. */
export const DEV_ENDPOINT_VAR = 'FW_DEV_ENDPOINT';
/** `ENV.devStorageToken`. */
export const DEV_STORAGE_TOKEN_VAR = 'FW_DEV_STORAGE_TOKEN';
/** `ENV.devAuthToken`. */
export const DEV_AUTH_TOKEN_VAR = 'FW_DEV_AUTH_TOKEN';
/** `ENV.devInboxToken`. */
export const DEV_INBOX_TOKEN_VAR = 'FW_DEV_INBOX_TOKEN';
/** `ENV.devSmtpPort`. */
export const DEV_SMTP_PORT_VAR = 'FW_DEV_SMTP_PORT';

/** Variables every function gets. */
export const ENV = {
  /** Project name from base config. */
  project: PROJECT_VAR,
  /** Stage being run or deployed (`dev`, `prod`, ...). */
  stage: STAGE_VAR,
  /** Region from base config. */
  region: REGION_VAR,
  /** Minimum log level: debug, info, warn, error. */
  logLevel: LOG_LEVEL_VAR,
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
  authResourceServer: AUTH_RESOURCE_SERVER_VAR,
  /**
   * The roles `config/security.ts` declares, comma-separated (empty when none): `service.auth.setRoles` refuses any
   * other, locally and deployed (a Cognito group that is no declared role grants nothing).
   */
  authRoles: 'FW_AUTH_ROLES',
  /** The WebSocket API's URL clients connect to (`wss://...`; in `fw dev` `ws://<host>:<port>/_ws`), when `src/ws/` has handlers. */
  wsUrl: 'FW_WS_URL',
  /** The WebSocket API's `@connections` endpoint that `service.ws` sends through (in `fw dev` the dev server's). */
  wsManagementUrl: 'FW_WS_MANAGEMENT_URL',
  /** The WebSocket connection registry's DynamoDB table (`<project>-<stage>-ws-connections`; in `fw dev` the dev server keeps it). */
  wsRegistryTable: 'FW_WS_REGISTRY_TABLE',
  /** The queue large `service.ws.publish` fan-outs go through (in `fw dev` the dev server fans out itself: `local`). */
  wsFanoutQueueUrl: 'FW_WS_FANOUT_QUEUE_URL',
  /**
   * `1`: routes check their return values against their `response` schemas (a mismatch answers 500 and logs the
   * fields). `fw dev` sets it; the deployed stack does not (a route opts in with `validateResponse: true`; `FW_*` names are reserved, so a function intent's `environment` cannot add it).
   */
  validateResponses: VALIDATE_RESPONSES_VAR,
  /**
   * The `@framework-pro` license key (an Ed25519-signed token, checked offline by `@framework-pro/license`). Deployed,
   * the stack sets it on every function when the deploying environment has it (`fw deploy` passes it through the CDK
   * context key `@framework/infra:licenseKey`); locally it comes from the environment or `.env`.
   */
  licenseKey: 'FW_LICENSE_KEY',
  /**
   * Local development only: base URL of the dev server, used by `invoke` and the queue client instead of the cloud.
   * Never set in a deployed function.
   */
  devEndpoint: DEV_ENDPOINT_VAR,
  /**
   * The KMS key (ARN) of `@framework/integrations`' token vault, on the functions granted it (`IntegrationsVaultKey`
   * of `@framework/infra`); unset under `fw dev`, where the vault uses a local key file under `.fw/`.
   */
  integrationsKmsKeyId: 'FW_INTEGRATIONS_KMS_KEY_ID',
  /**
   * Local development only: the per-run secret the storage client presents to the dev server's storage engine (its
   * object API answers no one else). Never set in a deployed function.
   */
  devStorageToken: DEV_STORAGE_TOKEN_VAR,
  /**
   * Local development only: the per-run secret `service.auth` presents to the dev issuer's user admin endpoint
   * (`DEV_PATHS.authAdmin`), which answers no one else. Never set in a deployed function.
   */
  devAuthToken: DEV_AUTH_TOKEN_VAR,
  /**
   * Local development only: the per-run secret `@framework/notify`'s local providers present to the dev server's
   * inbox (`DEV_PATHS.inbox`). Never set in a deployed function.
   */
  devInboxToken: DEV_INBOX_TOKEN_VAR,
  /** Local development only: the port of the local inbox's SMTP server (on the dev server's host). */
  devSmtpPort: DEV_SMTP_PORT_VAR,
  /**
   * The app's plans (`billing` of `defineApp`, checked, `graceSeconds` filled in) as JSON, when the app declares
   * billing: `@framework-pro/billing` reads them here, so a function never loads `fw.config.ts` or the config codecs.
   */
  billingPlans: 'FW_BILLING_PLANS',
  /**
   * Not given to functions: the project folder `defineApp` discovers files in when its options name no `rootDir` (the
   * `fw` commands set it before they import `fw.config.ts`).
   */
  projectRoot: 'FW_PROJECT_ROOT',
} as const;

/**
 * Variables of the Cognito pre-token-generation trigger (`@framework/auth/pre-token-generation`) only: no app function
 * gets them.
 */
export const AUTH_TRIGGER_ENV = {
  /** JSON `{ roles: { <role>: [scope] }, clients: { <app client name>: [scope] } }`, from `config/security.ts`. */
  scopeRules: 'FW_AUTH_SCOPE_RULES',
  /** The resource server's identifier, the prefix of custom scopes in tokens (the same variable functions get). */
  resourceServer: AUTH_RESOURCE_SERVER_VAR,
} as const;

/**
 * Variables of the WebSocket API's `$connect` authorizer (`@framework/auth/ws-connect-authorizer`) only, besides the
 * auth variables every function gets (pool, app clients, resource server).
 */
export const WS_AUTHORIZER_ENV = {
  /** The scopes `src/ws/$connect.ts` declares, as tokens carry them (`<resource server>/<scope>`), space-separated. */
  connectScopes: 'FW_WS_CONNECT_SCOPES',
} as const;

/**
 * Variables of the functions that verify access tokens themselves (`@framework/auth`'s verifier in their bundle, and the
 * WebSocket `$connect` authorizer), deployed only.
 */
export const TOKEN_VERIFIER_ENV = {
  /**
   * The user pool's JWKS (JSON `{ keys: [...] }`), fetched once at deploy after the pool exists: the verifier starts
   * with it in its cache, so a cold start verifies without fetching it (a token of a key it lacks still fetches).
   */
  jwks: 'FW_AUTH_JWKS',
} as const;

/**
 * The ARN of the Secrets Manager secret holding the API-key pepper (`@framework/integrations`), set deployed on the
 * functions whose code creates API keys (`createApiKeys(`) only. A constant of its own, not in `ENV`: that object is in
 * every route bundle.
 */
export const API_KEYS_PEPPER_SECRET_ARN_ENV = 'FW_API_KEYS_PEPPER_SECRET_ARN';

/** Variables the dev server sets that deployed functions never get (excluded when comparing both). */
export const DEV_ONLY_ENV: readonly string[] = [DEV_ENDPOINT_VAR, DEV_STORAGE_TOKEN_VAR, DEV_AUTH_TOKEN_VAR, DEV_INBOX_TOKEN_VAR, DEV_SMTP_PORT_VAR, VALIDATE_RESPONSES_VAR];

export { envToken } from './env-token.js';
export { databaseEnv } from '../intents/databases.js';
export { bucketEnv } from '../intents/storage.js';
export { queueEnv } from '../intents/queues.js';
export { cacheEnv } from '../intents/caches.js';
