import { FrameworkError } from '@framework/core/names';

/**
 * Errors of @framework/runtime.
 *
 * Two families:
 * - `HttpError` and its subclasses: thrown by route code (or middleware) to answer with a status and the shared error
 *   body `{ "error": { "code", "message", "requestId", "details"? } }`. Their codes are the UPPER_SNAKE codes in
 *   `HTTP_ERROR_CODES`.
 * - `FW_ERR_*` errors: raised by the runtime itself when something is misconfigured or a remote call failed
 *   (`RUNTIME_ERROR_CODES`).
 *
 * The README's two error tables list every code; `test/errors.test.ts` keeps them in step.
 */

/** Every HTTP error code the runtime produces or offers a class for, with its status and when it is used. */
export const HTTP_ERROR_CODES = {
  BAD_REQUEST: { status: 400, meaning: 'The request is invalid (thrown as `BadRequest`).' },
  INVALID_JSON: { status: 400, meaning: 'The body is declared JSON (`Content-Type: application/json` or `+json`) but does not parse.' },
  VALIDATION_FAILED: { status: 400, meaning: "The body, query, path parameters or headers fail the route's schemas; `details.issues` lists every issue (`in`, `path`, `message`)." },
  UNAUTHORIZED: { status: 401, meaning: 'The route has scopes and the request carries no verified token claims. Sent with `WWW-Authenticate: Bearer`.' },
  FORBIDDEN: { status: 403, meaning: 'The caller may not do this (thrown as `Forbidden`).' },
  INSUFFICIENT_SCOPE: { status: 403, meaning: 'The token lacks one or more of the scopes the route requires; the message names them.' },
  NOT_FOUND: { status: 404, meaning: 'The resource does not exist (thrown as `NotFound`).' },
  METHOD_NOT_ALLOWED: { status: 405, meaning: 'The method is not supported on this resource (thrown as `MethodNotAllowed`).' },
  CONFLICT: { status: 409, meaning: 'The request conflicts with the current state (thrown as `Conflict`).' },
  GONE: { status: 410, meaning: 'The resource existed but was removed (thrown as `Gone`).' },
  PAYLOAD_TOO_LARGE: { status: 413, meaning: 'The body is larger than the route accepts (thrown as `PayloadTooLarge`).' },
  UNSUPPORTED_MEDIA_TYPE: { status: 415, meaning: 'The body has a content type the route does not accept (thrown as `UnsupportedMediaType`).' },
  UNPROCESSABLE_ENTITY: { status: 422, meaning: 'The body parsed but failed validation (thrown as `UnprocessableEntity`, details carry the problems).' },
  TOO_MANY_REQUESTS: { status: 429, meaning: 'Rate limited (thrown as `TooManyRequests`); `retryAfter` becomes a `Retry-After` header.' },
  RESPONSE_VALIDATION_FAILED: { status: 500, meaning: "The route's return value fails its `response` schema (checked when `FW_VALIDATE_RESPONSES` is on). The body never carries the message; the log line names the fields." },
  INTERNAL_ERROR: { status: 500, meaning: 'Anything thrown that is not an `HttpError`. The body never carries the message or stack; the log line does, with the request id.' },
  NOT_IMPLEMENTED: { status: 501, meaning: 'Not implemented yet (thrown as `NotImplemented`).' },
  BAD_GATEWAY: { status: 502, meaning: 'An upstream service answered badly (thrown as `BadGateway`).' },
  SERVICE_UNAVAILABLE: { status: 503, meaning: 'Temporarily unavailable (thrown as `ServiceUnavailable`); `retryAfter` becomes a `Retry-After` header.' },
  GATEWAY_TIMEOUT: { status: 504, meaning: 'An upstream service did not answer in time (thrown as `GatewayTimeout`).' },
} as const;

export type HttpErrorCode = keyof typeof HTTP_ERROR_CODES;

/** Codes of the errors the runtime raises itself (not HTTP answers). */
export const RUNTIME_ERROR_CODES = {
  FW_ERR_INVOKE_REMOTE: 'The invoked function threw; `errorType` and `errorMessage` carry its error name and message.',
  FW_ERR_INVOKE_NOT_FOUND: 'No function with that id exists in this app and stage (locally: the dev server does not know it).',
  FW_ERR_INVOKE_FAILED: 'The invocation itself failed (transport error, or an unexpected answer from Lambda or the dev server).',
  FW_ERR_MISSING_ENV: 'A variable the runtime needs (`FW_PROJECT`, `FW_STAGE`, a queue URL) is not set in the function environment.',
  FW_ERR_QUEUE_SEND_FAILED: 'Sending a message to a queue failed.',
  FW_ERR_RETRYABLE: 'Thrown by user code (`RetryableError`) to mark a failure as transient, so `taskHandler` retries it.',
  FW_ERR_WS_GONE: '`service.ws.send` to a WebSocket connection that no longer exists (410 Gone); `broadcast` reports these in `gone` instead.',
  FW_ERR_WS_SEND_FAILED: 'Sending to or closing a WebSocket connection failed for another reason than 410 Gone.',
  FW_ERR_WS_CLIENT_REFUSED: 'The WebSocket client (`@framework/runtime/client`) was refused at connect with 401/403 (seen in Node with `ws`); it stopped instead of retrying.',
  FW_ERR_WS_CLIENT_UNREACHABLE: 'The WebSocket client failed `maxFailedAttempts` connection attempts in a row and stopped.',
  FW_ERR_WS_CLIENT_CLOSED: 'A message was sent on a WebSocket client that is closed (`close()`, or stopped after an error).',
  FW_ERR_WS_CLIENT_BUFFER_FULL: 'The WebSocket client already holds `maxBufferedMessages` messages waiting for the connection.',
  FW_ERR_WS_CLIENT_TOO_LARGE: "A message over API Gateway's 32 KB frame limit was given to the WebSocket client's `send`.",
  FW_ERR_WS_BAD_ARGUMENT: '`service.ws.subscribe`, `unsubscribe`, `publish` or `connections` got a topic, connection id or query it cannot use.',
  FW_ERR_WS_REGISTRY_FAILED: "Reading or writing the WebSocket connection registry (DynamoDB deployed, the dev server's under `fw dev`) failed.",
  FW_ERR_API_KEY_VERIFIER_MISSING: "A route accepts API keys (`auth: [..., 'apiKey']`) but no verifier was registered in its function (`createApiKeys(...)` of `@framework/integrations` registers one).",
  FW_ERR_SERVICE_EXTENSION: 'Two packages registered the same service property, or an extension factory threw.',
  FW_ERR_SERVICE_LEFT_OUT: "`service.queues` or `service.invoke` was used in a deployed function whose own code names no queue / no function, so its bundle left the client out.",
  FW_ERR_ROUTE_OPTIONS_LEFT_OUT: "A route's `handler(...)` declares options (scopes, schemas, middleware, `auth`) that its own files never name, so `@framework/infra` bundled it as a plain route; raised when the bundle loads (`fw synth`).",
} as const;

export type RuntimeErrorCode = keyof typeof RUNTIME_ERROR_CODES;

/** Options shared by the `HttpError` subclasses. */
export interface HttpErrorOptions {
  /**
   * Machine-readable code for the body (`UPPER_SNAKE`).
   * @default - the class's code (e.g. `NOT_FOUND`)
   */
  readonly code?: string;
  /**
   * Extra data for the client (e.g. validation problems); sent as `error.details`.
   * @default - no details
   */
  readonly details?: unknown;
  /**
   * Extra response headers.
   * @default - none
   */
  readonly headers?: Readonly<Record<string, string>>;
  /**
   * The underlying error, kept for the log (never sent to the client).
   * @default - none
   */
  readonly cause?: unknown;
}

const NO_HEADERS: Readonly<Record<string, string>> = Object.freeze({});

/** An error that answers with its own status and the shared error body. Throw it (or a subclass) from a route. */
export class HttpError extends FrameworkError {
  // `declare`: assigned in the constructor only, so no define-semantics field initializers run first (cheaper throws).
  declare public readonly status: number;
  declare public readonly details?: unknown;
  declare public readonly headers: Readonly<Record<string, string>>;

  constructor(status: number, code: string, message: string, details?: unknown, options?: Omit<HttpErrorOptions, 'code' | 'details'>) {
    super(code, message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.status = status;
    this.details = details;
    this.headers = options?.headers ?? NO_HEADERS;
  }
}

/** 400 `BAD_REQUEST`. */
export class BadRequest extends HttpError {
  constructor(message = 'Bad request', options: HttpErrorOptions = {}) {
    super(400, options.code ?? 'BAD_REQUEST', message, options.details, options);
  }
}

/** 401 `UNAUTHORIZED`, with `WWW-Authenticate: Bearer`. */
export class Unauthorized extends HttpError {
  constructor(message = 'Authentication required', options: HttpErrorOptions = {}) {
    super(401, options.code ?? 'UNAUTHORIZED', message, options.details, { ...options, headers: { 'www-authenticate': 'Bearer', ...options.headers } });
  }
}

/** 403 `FORBIDDEN`. */
export class Forbidden extends HttpError {
  constructor(message = 'Forbidden', options: HttpErrorOptions = {}) {
    super(403, options.code ?? 'FORBIDDEN', message, options.details, options);
  }
}

/** 404 `NOT_FOUND`. */
export class NotFound extends HttpError {
  constructor(message = 'Not found', options: HttpErrorOptions = {}) {
    super(404, options.code ?? 'NOT_FOUND', message, options.details, options);
  }
}

/** 405 `METHOD_NOT_ALLOWED`. */
export class MethodNotAllowed extends HttpError {
  constructor(message = 'Method not allowed', options: HttpErrorOptions = {}) {
    super(405, options.code ?? 'METHOD_NOT_ALLOWED', message, options.details, options);
  }
}

/** 409 `CONFLICT`. */
export class Conflict extends HttpError {
  constructor(message = 'Conflict', options: HttpErrorOptions = {}) {
    super(409, options.code ?? 'CONFLICT', message, options.details, options);
  }
}

/** 410 `GONE`. */
export class Gone extends HttpError {
  constructor(message = 'Gone', options: HttpErrorOptions = {}) {
    super(410, options.code ?? 'GONE', message, options.details, options);
  }
}

/** 413 `PAYLOAD_TOO_LARGE`. */
export class PayloadTooLarge extends HttpError {
  constructor(message = 'Payload too large', options: HttpErrorOptions = {}) {
    super(413, options.code ?? 'PAYLOAD_TOO_LARGE', message, options.details, options);
  }
}

/** 415 `UNSUPPORTED_MEDIA_TYPE`. */
export class UnsupportedMediaType extends HttpError {
  constructor(message = 'Unsupported media type', options: HttpErrorOptions = {}) {
    super(415, options.code ?? 'UNSUPPORTED_MEDIA_TYPE', message, options.details, options);
  }
}

/** 422 `UNPROCESSABLE_ENTITY`: the body parsed but is not valid; put the problems in `details`. */
export class UnprocessableEntity extends HttpError {
  constructor(message = 'Unprocessable entity', options: HttpErrorOptions = {}) {
    super(422, options.code ?? 'UNPROCESSABLE_ENTITY', message, options.details, options);
  }
}

/** One problem a schema found in the request: where (`body`, `query`, `params`, `headers`), the path inside it, why. */
export interface ValidationIssue {
  readonly in: 'body' | 'query' | 'params' | 'headers' | 'response';
  /** Keys from the top of that part to the offending value (`[]` for the part itself), e.g. `['items', 0, 'title']`. */
  readonly path: readonly (string | number)[];
  readonly message: string;
}

function describeIssue(issue: ValidationIssue): string {
  return `${[issue.in, ...issue.path].join('.')}: ${issue.message}`;
}

/** 400 `VALIDATION_FAILED`: the request fails the route's schemas; `details.issues` lists every issue. */
export class ValidationFailed extends HttpError {
  constructor(issues: readonly ValidationIssue[] = [], options: Omit<HttpErrorOptions, 'details'> = {}) {
    const more = issues.length > 1 ? ` (+${issues.length - 1} more in details.issues)` : '';
    super(400, options.code ?? 'VALIDATION_FAILED', `Invalid request${issues[0] ? `: ${describeIssue(issues[0])}${more}` : ''}`, { issues }, options);
  }
}

/**
 * 500 `RESPONSE_VALIDATION_FAILED`: the route returned a value its `response` schema rejects. The message (logged, never
 * sent) names every field.
 */
export class ResponseValidationFailed extends HttpError {
  constructor(issues: readonly ValidationIssue[] = [], options: Omit<HttpErrorOptions, 'details'> = {}) {
    super(500, options.code ?? 'RESPONSE_VALIDATION_FAILED', `Response fails its schema: ${issues.map(describeIssue).join('; ')}`, { issues }, options);
  }
}

/** 501 `NOT_IMPLEMENTED`. */
export class NotImplemented extends HttpError {
  constructor(message = 'Not implemented', options: HttpErrorOptions = {}) {
    super(501, options.code ?? 'NOT_IMPLEMENTED', message, options.details, options);
  }
}

/** 502 `BAD_GATEWAY`. */
export class BadGateway extends HttpError {
  constructor(message = 'Bad gateway', options: HttpErrorOptions = {}) {
    super(502, options.code ?? 'BAD_GATEWAY', message, options.details, options);
  }
}

/** 504 `GATEWAY_TIMEOUT`. */
export class GatewayTimeout extends HttpError {
  constructor(message = 'Gateway timeout', options: HttpErrorOptions = {}) {
    super(504, options.code ?? 'GATEWAY_TIMEOUT', message, options.details, options);
  }
}

/** 500 `INTERNAL_ERROR` thrown on purpose. Like any 500, its message is not sent to the client. */
export class InternalServerError extends HttpError {
  constructor(message = 'Internal server error', options: HttpErrorOptions = {}) {
    super(500, options.code ?? 'INTERNAL_ERROR', message, options.details, options);
  }
}

/** Options of the errors that may tell the client when to come back. */
export interface RetryAfterOptions extends HttpErrorOptions {
  /**
   * Seconds until the client may retry; sent as `Retry-After`.
   * @default - no Retry-After header
   */
  readonly retryAfter?: number;
}

function withRetryAfter(options: RetryAfterOptions): HttpErrorOptions {
  if (options.retryAfter === undefined) return options;
  return { ...options, headers: { 'retry-after': String(Math.max(0, Math.ceil(options.retryAfter))), ...options.headers } };
}

/** 429 `TOO_MANY_REQUESTS`. */
export class TooManyRequests extends HttpError {
  public readonly retryAfter?: number;
  constructor(message = 'Too many requests', options: RetryAfterOptions = {}) {
    const o = withRetryAfter(options);
    super(429, options.code ?? 'TOO_MANY_REQUESTS', message, options.details, o);
    if (options.retryAfter !== undefined) this.retryAfter = options.retryAfter;
  }
}

/** 503 `SERVICE_UNAVAILABLE`. */
export class ServiceUnavailable extends HttpError {
  public readonly retryAfter?: number;
  constructor(message = 'Service unavailable', options: RetryAfterOptions = {}) {
    const o = withRetryAfter(options);
    super(503, options.code ?? 'SERVICE_UNAVAILABLE', message, options.details, o);
    if (options.retryAfter !== undefined) this.retryAfter = options.retryAfter;
  }
}

/** The body is declared JSON but does not parse: 400 `INVALID_JSON`. */
export class InvalidJson extends HttpError {
  constructor(message = 'The request body is not valid JSON; send a JSON document or change the Content-Type', options: { cause?: unknown } = {}) {
    super(400, 'INVALID_JSON', message, undefined, options);
  }
}

/** The token lacks a required scope: 403 `INSUFFICIENT_SCOPE`, naming the scopes the route requires. */
export class InsufficientScope extends HttpError {
  public readonly requiredScopes: readonly string[];
  constructor(requiredScopes: readonly string[], missing: readonly string[]) {
    super(
      403,
      'INSUFFICIENT_SCOPE',
      `This route requires the scope${requiredScopes.length === 1 ? '' : 's'} ${requiredScopes.join(', ')}; the token lacks ${missing.join(', ')}`,
      { requiredScopes, missingScopes: missing },
      { headers: { 'www-authenticate': `Bearer error="insufficient_scope", scope="${requiredScopes.join(' ')}"` } },
    );
    this.requiredScopes = requiredScopes;
  }
}

/** An error the runtime raises itself, with an `FW_ERR_*` code. */
export class RuntimeError extends FrameworkError {
  constructor(code: RuntimeErrorCode, message: string, options?: { cause?: unknown }) {
    super(code, message, options);
  }
}

/**
 * The function called with `invoke` threw. `errorType` and `errorMessage` are the remote error's name and message
 * (from Lambda's `FunctionError` payload, or the dev server's equivalent answer).
 */
export class InvokeError extends RuntimeError {
  public readonly functionName: string;
  public readonly errorType: string;
  public readonly errorMessage: string;

  constructor(functionName: string, errorType: string, errorMessage: string) {
    super('FW_ERR_INVOKE_REMOTE', `${functionName} failed with ${errorType}: ${errorMessage}`);
    this.functionName = functionName;
    this.errorType = errorType;
    this.errorMessage = errorMessage;
  }
}

/**
 * Throw (or wrap a cause in) this to tell `taskHandler`/`processRecords` that the failure is transient and worth
 * retrying within the invocation.
 */
export class RetryableError extends RuntimeError {
  public readonly retryable = true;
  constructor(message: string, options?: { cause?: unknown }) {
    super('FW_ERR_RETRYABLE', message, options);
  }
}
