import { FrameworkError } from '@framework/core/names';
import { BadRequest, HttpError, TooManyRequests, Unauthorized } from '@framework/runtime';

/**
 * Errors of @framework/integrations. Every one has a stable `code`; README.md's error table lists each with its cause
 * and fix, and `test/errors.test.ts` keeps the two in step.
 */
export class IntegrationsError extends FrameworkError {}

/** What every failed outbound call carries: which call, and how many attempts were made. */
export interface UpstreamCallInfo {
  /** Upper-case method. */
  readonly method: string;
  /** The URL with secrets redacted (user info, token-like query parameters). */
  readonly url: string;
  /** Attempts made (1 = no retry). */
  readonly attempts: number;
}

/**
 * An outbound HTTP call that did not succeed. The subclasses say why; catch this class to handle all of them.
 * None maps to an HTTP status on its own: thrown from a handler it answers a plain 500 (the upstream's name and
 * answer stay in the log, never in the body).
 */
export class UpstreamFailureError extends IntegrationsError {
  declare readonly call: UpstreamCallInfo;
  constructor(code: string, message: string, call: UpstreamCallInfo, options?: { cause?: unknown }) {
    super(code, message, options);
    Object.defineProperty(this, 'call', { value: call, enumerable: true });
  }
}

/** An attempt outlived its timeout, or the overall deadline (or the function's remaining time) ran out. */
export class UpstreamTimeoutError extends UpstreamFailureError {
  public static readonly CODE = 'FW_ERR_UPSTREAM_TIMEOUT';
  /** `attempt`: one attempt's `timeoutMs`; `deadline`: the call's overall deadline (or the function's remaining time). */
  declare readonly reason: 'attempt' | 'deadline';
  constructor(call: UpstreamCallInfo, reason: 'attempt' | 'deadline', limitMs: number, options?: { cause?: unknown }) {
    const what = reason === 'attempt' ? `an attempt took longer than its timeout (${limitMs} ms)` : `the call's deadline (${limitMs} ms, capped by the function's remaining time) ran out`;
    super(UpstreamTimeoutError.CODE, `${call.method} ${call.url} timed out after ${call.attempts} attempt(s): ${what}. Raise timeoutMs/deadlineMs, or give the function more time.`, call, options);
    Object.defineProperty(this, 'reason', { value: reason, enumerable: true });
  }
}

/** The upstream answered 429 and retrying within the deadline was not possible. */
export class UpstreamRateLimitedError extends UpstreamFailureError {
  public static readonly CODE = 'FW_ERR_UPSTREAM_RATE_LIMITED';
  /** The wait the upstream asked for (Retry-After, RateLimit or X-RateLimit-Reset), when it said. */
  declare readonly retryAfterMs: number | undefined;
  constructor(call: UpstreamCallInfo, retryAfterMs: number | undefined) {
    const wait = retryAfterMs === undefined ? 'it named no wait' : `it asks to wait ${retryAfterMs} ms`;
    super(UpstreamRateLimitedError.CODE, `${call.method} ${call.url} was rate limited (429) after ${call.attempts} attempt(s); ${wait}. Slow down (queue the work) or retry later.`, call);
    Object.defineProperty(this, 'retryAfterMs', { value: retryAfterMs, enumerable: true });
  }
}

/**
 * The upstream answered a status that is not 2xx (after the retries a 408/5xx gets), or the connection failed
 * (`status` undefined: refused, reset, DNS).
 */
export class UpstreamError extends UpstreamFailureError {
  public static readonly CODE = 'FW_ERR_UPSTREAM_ERROR';
  declare readonly status: number | undefined;
  /** The response body (parsed JSON or text), when there was a response. */
  declare readonly body: unknown;
  /** `detail`: what went wrong with the connection (when there is no status), secrets already removed. */
  constructor(call: UpstreamCallInfo, status: number | undefined, body: unknown, options?: { cause?: unknown; detail?: string }) {
    const what = status === undefined ? `the connection failed (${options?.detail ?? 'no detail'})` : `it answered ${status}`;
    super(UpstreamError.CODE, `${call.method} ${call.url} failed after ${call.attempts} attempt(s): ${what}.`, call, options?.cause === undefined ? undefined : { cause: options.cause });
    Object.defineProperty(this, 'status', { value: status, enumerable: true });
    Object.defineProperty(this, 'body', { value: body, enumerable: false });
  }
}

/** The host's circuit breaker is open: recent calls failed, so this one was not sent. */
export class UpstreamCircuitOpenError extends UpstreamFailureError {
  public static readonly CODE = 'FW_ERR_UPSTREAM_CIRCUIT_OPEN';
  constructor(call: UpstreamCallInfo, host: string, options?: { cause?: unknown }) {
    super(UpstreamCircuitOpenError.CODE, `${call.method} ${call.url} was not sent: the circuit breaker for ${host} is open after repeated failures. It lets a trial call through after halfOpenAfterMs; retry later.`, call, options);
  }
}

/** A 2xx body did not match the `schema` given to the call. */
export class UpstreamResponseInvalidError extends UpstreamFailureError {
  public static readonly CODE = 'FW_ERR_UPSTREAM_INVALID_RESPONSE';
  declare readonly issues: readonly { readonly message: string; readonly path?: readonly unknown[] }[];
  constructor(call: UpstreamCallInfo, issues: readonly { readonly message: string; readonly path?: readonly unknown[] }[]) {
    const first = issues.slice(0, 3).map((issue) => (issue.path?.length ? `${issue.path.map((p) => (typeof p === 'object' && p !== null && 'key' in p ? String((p as { key: unknown }).key) : String(p))).join('.')}: ` : '') + issue.message);
    super(UpstreamResponseInvalidError.CODE, `${call.method} ${call.url} answered a body that does not match the schema (${first.join('; ')}). The upstream's API changed, or the schema is wrong.`, call);
    Object.defineProperty(this, 'issues', { value: issues, enumerable: true });
  }
}

/** `createHttpClient` or a call got options it cannot use (a relative URL without `baseUrl`, a negative timeout, ...). */
export class HttpClientOptionsError extends IntegrationsError {
  public static readonly CODE = 'FW_ERR_HTTP_CLIENT_OPTIONS';
  constructor(detail: string) {
    super(HttpClientOptionsError.CODE, `Invalid HTTP client options: ${detail}.`);
  }
}

/** The token vault's key could not be used: no KMS key in a deployed function, KMS refused, a key file that is not a key. */
export class VaultKeyError extends IntegrationsError {
  public static readonly CODE = 'FW_ERR_VAULT_KEY';
  constructor(detail: string, options?: { cause?: unknown }) {
    super(VaultKeyError.CODE, `The token vault's key cannot be used: ${detail}.`, options);
  }
}

/** OAuth2 configuration the connections cannot work with (an unknown provider, no client id, a bad redirect URI). */
export class OAuthConfigError extends IntegrationsError {
  public static readonly CODE = 'FW_ERR_OAUTH_CONFIG';
  constructor(detail: string) {
    super(OAuthConfigError.CODE, `OAuth2 is misconfigured: ${detail}.`);
  }
}

/**
 * A callback whose `state` is unknown, expired, already used, or was started by another user (a forged or replayed
 * callback): a 400 `OAUTH_STATE_INVALID` when thrown from a route; the user starts connecting again.
 */
export class OAuthStateError extends BadRequest {
  constructor(detail: string) {
    super(`The OAuth2 callback is refused: ${detail}. Start connecting again from the app.`, { code: 'OAUTH_STATE_INVALID' });
  }
}

/** The provider refused or failed a token request (`error` is its OAuth2 error code, such as `invalid_grant`). */
export class OAuthProviderError extends IntegrationsError {
  public static readonly CODE = 'FW_ERR_OAUTH_PROVIDER';
  declare readonly error: string | undefined;
  constructor(provider: string, error: string | undefined, detail: string, options?: { cause?: unknown }) {
    super(OAuthProviderError.CODE, `The OAuth2 provider "${provider}" refused the token request${error ? ` (${error})` : ''}: ${detail}.`, options);
    Object.defineProperty(this, 'error', { value: error, enumerable: true });
  }
}

/** No connection with that id (or for that owner and provider). */
export class ConnectionNotFoundError extends IntegrationsError {
  public static readonly CODE = 'FW_ERR_OAUTH_CONNECTION_NOT_FOUND';
  constructor(detail: string) {
    super(ConnectionNotFoundError.CODE, `No OAuth2 connection ${detail}. Connect the account first.`);
  }
}

/** The connection's refresh token was refused (revoked, expired): the owner must connect the account again. */
export class ConnectionBrokenError extends IntegrationsError {
  public static readonly CODE = 'FW_ERR_OAUTH_CONNECTION_BROKEN';
  constructor(connectionId: string, provider: string) {
    super(ConnectionBrokenError.CODE, `The OAuth2 connection ${connectionId} to "${provider}" is broken (its refresh token was refused). Ask its owner to connect the account again.`);
  }
}

/** Every code of this package, with its cause (the README's table lists the same codes). */
export const INTEGRATIONS_ERROR_CODES = {
  [UpstreamTimeoutError.CODE]: 'an outbound call timed out (attempt or deadline)',
  [UpstreamRateLimitedError.CODE]: 'the upstream answered 429 and no retry fitted the deadline',
  [UpstreamError.CODE]: 'the upstream answered a non-2xx status, or the connection failed',
  [UpstreamCircuitOpenError.CODE]: "the host's circuit breaker is open",
  [UpstreamResponseInvalidError.CODE]: 'a response body did not match its schema',
  [HttpClientOptionsError.CODE]: 'bad options for the HTTP client or a call',
  [VaultKeyError.CODE]: "the token vault's key cannot be used",
  [OAuthConfigError.CODE]: 'OAuth2 configuration the connections cannot use',
  [OAuthProviderError.CODE]: 'the provider refused or failed a token request',
  [ConnectionNotFoundError.CODE]: 'no such OAuth2 connection',
  [ConnectionBrokenError.CODE]: 'the connection needs to be connected again',
  FW_ERR_API_KEY_OPTIONS: '`createApiKeys` or `issue` got an option it cannot use (no allowed scopes, an expiry in the past, a rate limit below 1, an empty owner or name).',
  FW_ERR_API_KEY_PEPPER: 'No usable pepper for hashing API keys: a deployed function has neither `FW_API_KEYS_PEPPER` nor the pepper secret of `@framework/infra` (`FW_API_KEYS_PEPPER_SECRET_ARN`, given to functions whose code calls `createApiKeys(`), or the pepper is shorter than 32 characters.',
  FW_ERR_WEBHOOK_OPTIONS: 'A webhook endpoint or verifier got an option it cannot use (a URL that is not http(s), a secret in the wrong form, an empty event type).',
  FW_ERR_WEBHOOK_DELIVERY: 'A webhook delivery attempt got no 2xx answer (or none at all); the queue delivers it again.',
} as const;

/** The HTTP answers this package's errors make when thrown from a route (runtime `HttpError`s). */
export const INTEGRATIONS_HTTP_ERROR_CODES = {
  OAUTH_STATE_INVALID: { status: 400, meaning: 'An OAuth2 callback whose state is unknown, expired, already used or was started by another user.' },
  INVALID_API_KEY: { status: 401, meaning: 'The API key is unknown, revoked, expired, of the other kind (test/live), or malformed. The body does not say which.' },
  API_KEY_RATE_LIMITED: { status: 429, meaning: "The key is over its per-key rate limit; `Retry-After` says when its window restarts." },
  UNKNOWN_SCOPE: { status: 400, meaning: 'A key was asked for a scope the app does not declare (or for none).' },
  API_KEY_NOT_FOUND: { status: 404, meaning: 'The key id names no active key of this owner (revoke, rotate).' },
  WEBHOOK_ENDPOINT_NOT_FOUND: { status: 404, meaning: 'The endpoint id names no webhook endpoint of this owner (remove).' },
  WEBHOOK_SIGNATURE_MISSING: { status: 400, meaning: 'An incoming webhook lacks its signature headers (`webhook-id`, `webhook-timestamp`, `webhook-signature`, or `Stripe-Signature`).' },
  WEBHOOK_TIMESTAMP_STALE: { status: 400, meaning: 'An incoming webhook was signed outside the tolerance (5 minutes by default): a replay, or a clock far off.' },
  WEBHOOK_SIGNATURE_INVALID: { status: 401, meaning: 'An incoming webhook signature does not match its body with the shared secret: forged or altered.' },
} as const;

/** 401 `INVALID_API_KEY`: the same answer whatever is wrong with the key, so a caller learns nothing from it. */
export class InvalidApiKey extends Unauthorized {
  constructor() {
    super('The API key is not valid (unknown, revoked, expired or malformed); send a current key as Authorization: Bearer sk_...', { code: 'INVALID_API_KEY' });
  }
}

/** 429 `API_KEY_RATE_LIMITED`, with `Retry-After`. */
export class ApiKeyRateLimited extends TooManyRequests {
  constructor(retryAfterSeconds: number) {
    super(`This API key is over its rate limit; retry after ${retryAfterSeconds} s`, { code: 'API_KEY_RATE_LIMITED', retryAfter: retryAfterSeconds });
  }
}

/** 400 `UNKNOWN_SCOPE`: a key asked for scopes the app does not declare. */
export class UnknownScope extends BadRequest {
  constructor(unknown: readonly string[], allowed: readonly string[]) {
    super(
      unknown.length === 0 ? `An API key needs at least one scope (one of ${allowed.join(', ')})` : `Unknown scope${unknown.length === 1 ? '' : 's'} ${unknown.join(', ')}: an API key may hold ${allowed.join(', ')}`,
      { code: 'UNKNOWN_SCOPE', details: { unknownScopes: unknown, allowedScopes: allowed } },
    );
  }
}

/** 400 `WEBHOOK_SIGNATURE_MISSING`. */
export class WebhookSignatureMissing extends BadRequest {
  constructor(headers: string) {
    super(`The webhook has no signature: expected the ${headers} header(s)`, { code: 'WEBHOOK_SIGNATURE_MISSING' });
  }
}

/** 400 `WEBHOOK_TIMESTAMP_STALE`. */
export class WebhookTimestampStale extends BadRequest {
  constructor(toleranceSeconds: number) {
    super(`The webhook's timestamp is more than ${toleranceSeconds} s away from now: refused as a possible replay`, { code: 'WEBHOOK_TIMESTAMP_STALE' });
  }
}

/** 401 `WEBHOOK_SIGNATURE_INVALID`. */
export class WebhookSignatureInvalid extends HttpError {
  constructor() {
    super(401, 'WEBHOOK_SIGNATURE_INVALID', 'The webhook signature does not match its body: forged, altered, or signed with another secret');
  }
}
