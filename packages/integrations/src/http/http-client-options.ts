import type { Logger, StandardSchemaV1 } from '@framework/runtime';
import type { Readable } from 'node:stream';
import type { Dispatcher } from 'undici';

/** What the client needs from a handler's `ctx` (HTTP or task): its logger, request id and remaining time. */
export interface InvocationContextLike {
  /** The invocation's request id (log lines carry it through `logger`). */
  readonly requestId?: string;
  /** A logger bound to the invocation (`ctx.logger`). */
  readonly logger?: Logger;
  /** Milliseconds left before Lambda stops the invocation: no call runs past it. */
  getRemainingTimeInMillis(): number;
}

/** Retries of a call. Only idempotent methods, and POST/PATCH with an `Idempotency-Key`, are retried. */
export interface HttpRetryOptions {
  /**
   * Attempts in all (1 = no retry).
   * @default 3
   */
  readonly maxAttempts?: number;
  /**
   * The backoff before the first retry's jitter; doubled for each further retry.
   * @default 200
   */
  readonly baseDelayMs?: number;
  /**
   * The largest backoff (before jitter). A wait the upstream asks for (Retry-After) may be longer, within the deadline.
   * @default 5000
   */
  readonly maxDelayMs?: number;
}

/** The circuit breaker every host gets (cockatiel's `ConsecutiveBreaker`). */
export interface HttpCircuitBreakerOptions {
  /**
   * Consecutive failed attempts (connection errors, timeouts, 5xx) that open the circuit.
   * @default 5
   */
  readonly consecutiveFailures?: number;
  /**
   * How long an open circuit refuses calls before it lets one trial call through (half-open).
   * @default 30000
   */
  readonly halfOpenAfterMs?: number;
}

export interface HttpClientOptions {
  /**
   * Base for relative URLs (`client.get('/v1/charges')`).
   * @default - none: every URL must be absolute
   */
  readonly baseUrl?: string | URL;
  /**
   * Headers sent with every call (a call's own `headers` win).
   * @default - none
   */
  readonly headers?: Readonly<Record<string, string>>;
  /**
   * Timeout of one attempt (connect, headers and body), in milliseconds.
   * @default 10000
   */
  readonly timeoutMs?: number;
  /**
   * Overall time for a call, retries and waits included; never past the invocation's remaining time minus
   * `deadlineMarginMs` when a context is known.
   * @default 30000
   */
  readonly deadlineMs?: number;
  /**
   * Time kept back from the invocation's remaining time, so the handler can still answer after a failed call.
   * @default 500
   */
  readonly deadlineMarginMs?: number;
  /**
   * Retries (`false`: none).
   * @default - 3 attempts, 200 ms base, 5 s cap
   */
  readonly retry?: HttpRetryOptions | false;
  /**
   * The per-host circuit breaker (`false`: none).
   * @default - opens after 5 consecutive failures, half-open after 30 s
   */
  readonly circuitBreaker?: HttpCircuitBreakerOptions | false;
  /**
   * Further header names whose values are redacted in log lines (Authorization, Cookie, X-Api-Key and friends always are).
   * @default - none
   */
  readonly redactHeaders?: readonly string[];
  /**
   * Further query parameter names whose values are redacted in log lines and error messages (`access_token`,
   * `token`, `key`, `client_secret`, `signature`, ... always are).
   * @default - none
   */
  readonly redactQueryParams?: readonly string[];
  /**
   * Where the per-attempt lines go.
   * @default - the context's logger, else the runtime's root logger
   */
  readonly logger?: Logger;
  /**
   * The invocation the calls belong to (logger, request id, remaining time).
   * @default - the running task's context (`taskHandler`); for HTTP routes use `client.withContext(ctx)`
   */
  readonly context?: InvocationContextLike;
  /**
   * The random source of the jitter, in `[0, 1)` (tests inject a fixed one).
   * @default Math.random
   */
  readonly random?: () => number;
  /**
   * The undici dispatcher (connection pool, proxy, `MockAgent`).
   * @default - undici's global dispatcher (keep-alive connections reused across invocations)
   */
  readonly dispatcher?: Dispatcher;
}

/** A query parameter value; arrays repeat the parameter, `undefined`/`null` leave it out. */
export type QueryValue = string | number | boolean | null | undefined | readonly (string | number | boolean)[];

export interface HttpRequestOptions<T = unknown> {
  /** Query parameters appended to the URL. @default - none */
  readonly query?: Readonly<Record<string, QueryValue>>;
  /** Headers of this call (`undefined` removes a client header). @default - the client's */
  readonly headers?: Readonly<Record<string, string | undefined>>;
  /** A JSON body (sets `Content-Type: application/json` unless given). @default - none */
  readonly json?: unknown;
  /** A raw body (URLSearchParams: form-encoded); a stream body is sent once (never retried). @default - none */
  readonly body?: string | Uint8Array | ArrayBuffer | URLSearchParams | Readable;
  /** @default - the client's `timeoutMs` */
  readonly timeoutMs?: number;
  /** @default - the client's `deadlineMs` */
  readonly deadlineMs?: number;
  /** @default - the client's `retry` */
  readonly retry?: HttpRetryOptions | false;
  /**
   * The `Idempotency-Key` header, the same on every attempt; `false` sends none (and a POST is then not retried).
   * @default - a random UUID for POST; none for other methods (a PATCH with a key is retried)
   */
  readonly idempotencyKey?: string | false;
  /** A Standard Schema (zod, valibot, arktype, ...) a 2xx body must match; the response's `body` is its output. @default - none */
  readonly schema?: StandardSchemaV1<unknown, T>;
  /** How the body is read: `auto` parses JSON when the content type says so, else text. @default 'auto' */
  readonly responseType?: 'auto' | 'json' | 'text' | 'bytes';
  /** Throw `UpstreamError` (or `UpstreamRateLimitedError`) for a final non-2xx answer; `false` returns it. @default true */
  readonly throwHttpErrors?: boolean;
  /** Aborts the call (no retry after it). @default - none */
  readonly signal?: AbortSignal;
  /** @default - the client's `context` */
  readonly context?: InvocationContextLike;
}

/** An answer. */
export interface HttpResponse<T = unknown> {
  readonly status: number;
  /** Whether `status` is 2xx. */
  readonly ok: boolean;
  readonly headers: Headers;
  /** Parsed JSON, text or bytes (see `responseType`); the schema's output when one was given; `undefined` when empty. */
  readonly body: T;
  /** Attempts made (1 = no retry). */
  readonly attempts: number;
}

/** The state of a host's circuit breaker. */
export type CircuitStateName = 'closed' | 'open' | 'half-open' | 'isolated';

