/**
 * `fw dev` only: the dev server's own paths. Every one is under `/_dev`, which the dev server keeps to the developer
 * (loopback or the configured host, no cross-origin page). The dev server serves them, and the runtime's `invoke` and
 * the local storage engine's notifications call them: all three read these constants. Never used by a deployed
 * function (it has no `FW_DEV_ENDPOINT`).
 */
export const DEV_PATH_ROOT = '/_dev';

/** The dev server's endpoints, by what they serve. */
export const DEV_PATHS = {
  /** `POST`: mints a token of the local issuer. */
  token: `${DEV_PATH_ROOT}/token`,
  /** `GET`: the app's routes, functions, queues and crons. */
  functions: `${DEV_PATH_ROOT}/functions`,
  /** `POST <invoke>/<function>`: invokes a standalone function, as Lambda's Invoke API. */
  invoke: `${DEV_PATH_ROOT}/invoke`,
  /** `POST <invokeQueue>/<queue>`: hands one message to a queue's consumer. */
  invokeQueue: `${DEV_PATH_ROOT}/invoke/queue`,
  /** `POST <invokeCron>/<cron>`: runs a cron once. */
  invokeCron: `${DEV_PATH_ROOT}/invoke/cron`,
  /** `<queues>/<id>`: the embedded queue engine (a queue's `FW_QUEUE_<ID>_URL`). */
  queues: `${DEV_PATH_ROOT}/queues`,
  /** `<caches>/<id>`: the embedded cache engine (a cache's `FW_CACHE_<ID>_ENDPOINT`). */
  caches: `${DEV_PATH_ROOT}/caches`,
  /** `<storage>/<bucketId>`: the embedded storage engine (a bucket's `FW_STORAGE_<ID>_URL`). */
  storage: `${DEV_PATH_ROOT}/storage`,
  /**
   * `<ws>/@connections/<connectionId>`: the WebSocket API's management API (`POST` sends, `GET` describes, `DELETE`
   * closes), the value of `FW_WS_MANAGEMENT_URL`, so the AWS SDK's client works locally unchanged.
   */
  ws: `${DEV_PATH_ROOT}/ws`,
  /** `GET`: the app's OpenAPI 3.1 document, generated from the route files and their schemas (as `fw openapi`). */
  openapi: `${DEV_PATH_ROOT}/openapi.json`,
  /** `GET`: the API reference page of that document (Swagger UI, served from the CLI's own files). */
  docs: `${DEV_PATH_ROOT}/docs`,
  /**
   * `POST { action, ... }`: the dev issuer's user admin (create, get, list, disable, enable, delete, set roles, global
   * sign-out) that `service.auth` calls under `fw dev`, with this run's `FW_DEV_AUTH_TOKEN`.
   */
  authAdmin: `${DEV_PATH_ROOT}/auth/admin`,
  /**
   * The local inbox of `@framework/notify`: `GET` lists what the app sent on every channel (newest first), `DELETE`
   * clears it; `POST <inbox>/messages` stores an SMS/WhatsApp/push message (with this run's `FW_DEV_INBOX_TOKEN`).
   */
  inbox: `${DEV_PATH_ROOT}/inbox`,
} as const;

/**
 * `fw dev` only: where clients open the app's WebSocket connections (`ws://localhost:3000/_ws`, the value of
 * `FW_WS_URL`). Not under `/_dev`: the app's own clients (a browser page of any origin) connect here, as they would
 * to the deployed API.
 */
export const DEV_WS_PATH = '/_ws';

/** `POST`: sends a message to queue `id` of the embedded queue engine. */
export function devQueueMessagesPath(id: string): string {
  return `${DEV_PATHS.queues}/${encodeURIComponent(id)}/messages`;
}

/**
 * `fw dev` only: the dev issuer's OAuth 2.0 / OIDC endpoints, at the paths Cognito's user pool domain serves them, so a
 * front end configured with the issuer's base URL works against both. Not under `/_dev`: a browser page (the app's
 * front end, at a `callbackUrls` origin) navigates to them.
 */
export const DEV_OAUTH_PATHS = {
  openidConfiguration: '/.well-known/openid-configuration',
  jwks: '/.well-known/jwks.json',
  authorize: '/oauth2/authorize',
  /** `POST`: the login page's form. */
  login: '/oauth2/login',
  /** `POST`: the login page's sign-up form (self sign-up apps only). */
  signUp: '/oauth2/signup',
  /** `POST`: the code that confirms a new account. */
  confirmSignUp: '/oauth2/confirm',
  /** `POST`: the login page's "Forgot your password?": asks for a reset code by email. */
  forgotPassword: '/oauth2/forgot',
  /** `POST`: the reset code and the new password. */
  resetPassword: '/oauth2/reset',
  token: '/oauth2/token',
  userInfo: '/oauth2/userInfo',
  logout: '/logout',
} as const;
