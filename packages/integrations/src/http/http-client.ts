import { getRootLogger, taskInvocation, type Logger } from '@framework/runtime';
import { BrokenCircuitError, CircuitState, ConsecutiveBreaker, circuitBreaker, handleWhen, IsolatedCircuitError, type CircuitBreakerPolicy } from 'cockatiel';
import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { getGlobalDispatcher, request as undiciRequest, type Dispatcher } from 'undici';
import {
  HttpClientOptionsError,
  UpstreamCircuitOpenError,
  UpstreamError,
  UpstreamRateLimitedError,
  UpstreamResponseInvalidError,
  UpstreamTimeoutError,
  type UpstreamCallInfo,
} from '../errors.js';
import type {
  CircuitStateName,
  HttpCircuitBreakerOptions,
  HttpClientOptions,
  HttpRequestOptions,
  HttpResponse,
  HttpRetryOptions,
  InvocationContextLike,
  QueryValue,
} from './http-client-options.js';
import { DEFAULT_REDACTED_HEADERS, DEFAULT_REDACTED_QUERY_PARAMS, redactHeaders, redactPath, redactUrl } from './redact.js';
import { backoffDelayMs, serverRequestedDelayMs } from './retry-delay.js';

/** Methods whose repetition has the effect of one call (RFC 9110 §9.2.2): retried without an idempotency key. */
const IDEMPOTENT_METHODS = new Set(['GET', 'HEAD', 'OPTIONS', 'PUT', 'DELETE', 'TRACE']);
/** Answers worth another attempt: the request timed out, too many requests, or a transient server failure. */
const RETRYABLE_STATUSES = new Set([408, 429, 500, 502, 503, 504]);
/** Answers that count against a host's health (429 is the host protecting itself, not failing). */
const isBreakerFailureStatus = (status: number): boolean => status >= 500;

const DEFAULT_RETRY: Required<HttpRetryOptions> = { maxAttempts: 3, baseDelayMs: 200, maxDelayMs: 5000 };
const DEFAULT_BREAKER: Required<HttpCircuitBreakerOptions> = { consecutiveFailures: 5, halfOpenAfterMs: 30_000 };

/** An outbound HTTP client. `service.http` is one, shared by every invocation of the container. */
export interface HttpClient {
  request<T = unknown>(method: string, url: string | URL, options?: HttpRequestOptions<T>): Promise<HttpResponse<T>>;
  get<T = unknown>(url: string | URL, options?: HttpRequestOptions<T>): Promise<HttpResponse<T>>;
  post<T = unknown>(url: string | URL, options?: HttpRequestOptions<T>): Promise<HttpResponse<T>>;
  put<T = unknown>(url: string | URL, options?: HttpRequestOptions<T>): Promise<HttpResponse<T>>;
  patch<T = unknown>(url: string | URL, options?: HttpRequestOptions<T>): Promise<HttpResponse<T>>;
  delete<T = unknown>(url: string | URL, options?: HttpRequestOptions<T>): Promise<HttpResponse<T>>;
  /**
   * The same client (same breakers) bound to an invocation: its logger (request id) and its remaining time.
   * In an HTTP route: `service.http.withContext(ctx).get(...)`.
   */
  withContext(context: InvocationContextLike): HttpClient;
  /** The circuit state of a host (`api.example.com`, with `:port` when not the default), `undefined` before any call. */
  circuitState(host: string): CircuitStateName | undefined;
}

/** What one attempt came to. */
type AttemptOutcome =
  | { readonly kind: 'response'; readonly status: number; readonly headers: Headers; readonly body: unknown }
  | { readonly kind: 'timeout'; readonly reason: 'attempt' | 'deadline'; readonly cause: unknown }
  | { readonly kind: 'network'; readonly cause: unknown };

/** Thrown inside the breaker's `execute` so that cockatiel counts the attempt as failed; unwrapped right after. */
class FailedAttempt {
  constructor(readonly outcome: AttemptOutcome) {}
}

interface ResolvedSettings {
  readonly baseUrl: URL | undefined;
  readonly headers: Readonly<Record<string, string>>;
  readonly timeoutMs: number;
  readonly deadlineMs: number;
  readonly deadlineMarginMs: number;
  readonly retry: Required<HttpRetryOptions> | false;
  readonly breaker: Required<HttpCircuitBreakerOptions> | false;
  readonly redactedHeaders: ReadonlySet<string>;
  readonly redactedParams: ReadonlySet<string>;
  readonly logger: Logger | undefined;
  readonly random: () => number;
  readonly dispatcher: Dispatcher | undefined;
}

/** Lower-case names, no prototype: names come from callers and upstreams. */
type HeaderRecord = Record<string, string>;

/**
 * An HTTP client for calls to other services: per-attempt timeout and overall deadline (within the function's
 * remaining time), retries with exponential backoff and full jitter (idempotent methods; POST with its
 * `Idempotency-Key`), the upstream's Retry-After / RateLimit headers honoured, a circuit breaker per host, one
 * structured log line per attempt with secrets redacted, coded errors.
 */
export function createHttpClient(options: HttpClientOptions = {}): HttpClient {
  return new FetchHttpClient(resolveSettings(options), new Map(), options.context);
}

class FetchHttpClient implements HttpClient {
  constructor(
    private readonly settings: ResolvedSettings,
    private readonly breakers: Map<string, CircuitBreakerPolicy>,
    private readonly context: InvocationContextLike | undefined,
  ) {}

  get<T>(url: string | URL, options?: HttpRequestOptions<T>): Promise<HttpResponse<T>> {
    return this.request('GET', url, options);
  }
  post<T>(url: string | URL, options?: HttpRequestOptions<T>): Promise<HttpResponse<T>> {
    return this.request('POST', url, options);
  }
  put<T>(url: string | URL, options?: HttpRequestOptions<T>): Promise<HttpResponse<T>> {
    return this.request('PUT', url, options);
  }
  patch<T>(url: string | URL, options?: HttpRequestOptions<T>): Promise<HttpResponse<T>> {
    return this.request('PATCH', url, options);
  }
  delete<T>(url: string | URL, options?: HttpRequestOptions<T>): Promise<HttpResponse<T>> {
    return this.request('DELETE', url, options);
  }

  withContext(context: InvocationContextLike): HttpClient {
    return new FetchHttpClient(this.settings, this.breakers, context);
  }

  circuitState(host: string): CircuitStateName | undefined {
    const breaker = this.breakers.get(host);
    if (!breaker) return undefined;
    switch (breaker.state) {
      case CircuitState.Closed:
        return 'closed';
      case CircuitState.Open:
        return 'open';
      case CircuitState.HalfOpen:
        return 'half-open';
      default:
        return 'isolated';
    }
  }

  async request<T>(methodIn: string, urlIn: string | URL, options: HttpRequestOptions<T> = {}): Promise<HttpResponse<T>> {
    const s = this.settings;
    const method = methodIn.toUpperCase();
    const url = this.resolveUrl(urlIn, options.query);
    const context = options.context ?? this.context ?? taskInvocation.getStore()?.ctx;
    const logger = s.logger ?? context?.logger ?? getRootLogger();
    const timeoutMs = checkDuration('timeoutMs', options.timeoutMs) ?? s.timeoutMs;
    let deadlineMs = checkDuration('deadlineMs', options.deadlineMs) ?? s.deadlineMs;
    if (context) deadlineMs = Math.max(0, Math.min(deadlineMs, context.getRemainingTimeInMillis() - s.deadlineMarginMs));
    const startedAt = Date.now();
    const deadlineAt = startedAt + deadlineMs;

    const headers: HeaderRecord = Object.assign(Object.create(null) as HeaderRecord, s.headers);
    if (options.headers) {
      for (const [name, value] of Object.entries(options.headers)) {
        if (value === undefined) delete headers[name.toLowerCase()];
        else headers[name.toLowerCase()] = value;
      }
    }
    if (url.username || url.password) {
      // Credentials in a URL mean Basic authentication (unless the call sets its own); they never travel in the URL.
      headers['authorization'] ??= `Basic ${Buffer.from(`${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`).toString('base64')}`;
      url.username = '';
      url.password = '';
    }
    let body: string | Uint8Array | Readable | undefined;
    if (options.json !== undefined) {
      if (options.body !== undefined) throw new HttpClientOptionsError('a call got both `json` and `body`; pass one of them');
      body = JSON.stringify(options.json);
      headers['content-type'] ??= 'application/json';
    } else if (options.body instanceof URLSearchParams) {
      body = options.body.toString();
      headers['content-type'] ??= 'application/x-www-form-urlencoded';
    } else if (options.body instanceof ArrayBuffer) {
      body = new Uint8Array(options.body);
    } else {
      body = options.body;
    }
    if (options.idempotencyKey !== undefined && options.idempotencyKey !== false) headers['idempotency-key'] = options.idempotencyKey;
    else if (options.idempotencyKey === undefined && method === 'POST') headers['idempotency-key'] ??= randomUUID();
    else if (options.idempotencyKey === false) delete headers['idempotency-key'];

    const retry = options.retry === undefined ? s.retry : options.retry === false ? false : { ...(s.retry || DEFAULT_RETRY), ...options.retry };
    const replayable = !(body instanceof Readable);
    const retryable = replayable && (IDEMPOTENT_METHODS.has(method) || headers['idempotency-key'] !== undefined);
    const maxAttempts = retry && retryable ? retry.maxAttempts : 1;
    const breaker = this.breakerFor(url.host);
    const callInfo = (attempts: number): UpstreamCallInfo => ({ method, url: redactUrl(url, s.redactedParams), attempts });
    const logFields = { method, host: url.host, path: redactPath(url, s.redactedParams) };
    if (logger.isEnabled('debug')) logger.debug('http request', { ...logFields, headers: redactHeaders(headers, s.redactedHeaders) });

    let last: AttemptOutcome | undefined;
    for (let attempt = 1; ; attempt++) {
      const remaining = deadlineAt - Date.now();
      if (remaining <= 0) throw new UpstreamTimeoutError(callInfo(attempt - 1), 'deadline', deadlineMs, { cause: causeOf(last) });
      const attemptLimit = Math.min(timeoutMs, remaining);
      const attemptStart = performance.now();
      let outcome: AttemptOutcome;
      try {
        const run = (): Promise<AttemptOutcome> => this.attempt(method, url, headers, body, attemptLimit, attemptLimit < timeoutMs ? 'deadline' : 'attempt', options);
        outcome = breaker ? await breaker.execute(run) : await run();
      } catch (error) {
        if (error instanceof FailedAttempt) outcome = error.outcome;
        else if (error instanceof BrokenCircuitError || error instanceof IsolatedCircuitError) {
          logger.warn('http call refused: circuit open', { ...logFields, attempt });
          throw new UpstreamCircuitOpenError(callInfo(attempt - 1), url.host, { cause: causeOf(last) });
        } else throw error;
      }
      last = outcome;
      const durationMs = Math.round((performance.now() - attemptStart) * 100) / 100;
      const status = outcome.kind === 'response' ? outcome.status : undefined;

      const wantsRetry = outcome.kind !== 'response' || RETRYABLE_STATUSES.has(outcome.status);
      let retryInMs: number | undefined;
      let requestedMs: number | undefined;
      if (wantsRetry && attempt < maxAttempts && retry) {
        requestedMs = outcome.kind === 'response' ? serverRequestedDelayMs(outcome.headers, Date.now()) : undefined;
        const delay = Math.max(backoffDelayMs(attempt, retry.baseDelayMs, retry.maxDelayMs, s.random), requestedMs ?? 0);
        // A wait that would end past the deadline is no retry: fail now with what the upstream said.
        if (Date.now() + delay < deadlineAt) retryInMs = delay;
      } else if (outcome.kind === 'response' && outcome.status === 429) {
        requestedMs = serverRequestedDelayMs(outcome.headers, Date.now());
      }

      const line = { ...logFields, status, outcome: outcome.kind === 'response' ? undefined : outcome.kind, durationMs, attempt, retryInMs, upstreamRequestId: upstreamRequestId(outcome) };
      if (outcome.kind === 'response' && isOk(outcome.status)) logger.info('http call', line);
      else logger.warn('http call', outcome.kind === 'response' ? line : { ...line, error: describeError(outcome.cause) });

      if (retryInMs !== undefined) {
        await sleep(retryInMs, options.signal);
        continue;
      }
      return this.finish(outcome, attempt, options, callInfo, requestedMs);
    }
  }

  private async finish<T>(outcome: AttemptOutcome, attempts: number, options: HttpRequestOptions<T>, callInfo: (attempts: number) => UpstreamCallInfo, requestedMs: number | undefined): Promise<HttpResponse<T>> {
    if (outcome.kind === 'timeout') throw new UpstreamTimeoutError(callInfo(attempts), outcome.reason, outcome.reason === 'attempt' ? (options.timeoutMs ?? this.settings.timeoutMs) : (options.deadlineMs ?? this.settings.deadlineMs), { cause: outcome.cause });
    if (outcome.kind === 'network') throw new UpstreamError(callInfo(attempts), undefined, undefined, { cause: outcome.cause, detail: this.describeFailure(outcome.cause) });
    const { status, headers } = outcome;
    const ok = isOk(status);
    let body = outcome.body;
    if (!ok) {
      if (options.throwHttpErrors !== false) {
        if (status === 429) throw new UpstreamRateLimitedError(callInfo(attempts), requestedMs);
        throw new UpstreamError(callInfo(attempts), status, body);
      }
    } else if (options.schema) {
      let result = options.schema['~standard'].validate(body);
      if (result instanceof Promise) result = await result;
      if (result.issues) throw new UpstreamResponseInvalidError(callInfo(attempts), result.issues);
      body = result.value;
    }
    return { status, ok, headers, body: body as T, attempts };
  }

  /** One attempt, its body read within the same timeout. Breaker failures (5xx, timeouts, connection errors) are thrown as `FailedAttempt`. */
  private async attempt(method: string, url: URL, headers: HeaderRecord, body: string | Uint8Array | Readable | undefined, limitMs: number, limitKind: 'attempt' | 'deadline', options: HttpRequestOptions<unknown>): Promise<AttemptOutcome> {
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, limitMs);
    const signal = options.signal ? AbortSignal.any([controller.signal, options.signal]) : controller.signal;
    try {
      const response = await undiciRequest(url, { method: method as Dispatcher.HttpMethod, headers, body, signal, dispatcher: this.settings.dispatcher ?? getGlobalDispatcher() });
      const parsed = await readBody(response, method, options.responseType ?? 'auto');
      const outcome: AttemptOutcome = { kind: 'response', status: response.statusCode, headers: toHeaders(response.headers), body: parsed };
      if (isBreakerFailureStatus(response.statusCode)) throw new FailedAttempt(outcome);
      return outcome;
    } catch (error) {
      if (error instanceof FailedAttempt) throw error;
      if (timedOut) throw new FailedAttempt({ kind: 'timeout', reason: limitKind, cause: error });
      if (options.signal?.aborted) throw options.signal.reason ?? error;
      throw new FailedAttempt({ kind: 'network', cause: error });
    } finally {
      clearTimeout(timer);
    }
  }

  /** The connection failure in a few words, without the URL undici may quote (it carries the unredacted query). */
  private describeFailure(error: unknown): string {
    if (!(error instanceof Error)) return 'no detail';
    const inner = (error as Error & { cause?: unknown }).cause;
    const source = inner instanceof Error ? inner : error;
    const code = (source as Error & { code?: unknown }).code;
    const message = source.message.replace(/\bhttps?:\/\/\S+/g, '<url>');
    return typeof code === 'string' ? `${code}: ${message}` : message;
  }

  private breakerFor(host: string): CircuitBreakerPolicy | undefined {
    const options = this.settings.breaker;
    if (!options) return undefined;
    let breaker = this.breakers.get(host);
    if (!breaker) {
      breaker = circuitBreaker(handleWhen((error) => error instanceof FailedAttempt), {
        halfOpenAfter: options.halfOpenAfterMs,
        breaker: new ConsecutiveBreaker(options.consecutiveFailures),
      });
      this.breakers.set(host, breaker);
    }
    return breaker;
  }

  private resolveUrl(input: string | URL, query: Readonly<Record<string, QueryValue>> | undefined): URL {
    let url: URL;
    try {
      url = new URL(input, this.settings.baseUrl);
    } catch {
      throw new HttpClientOptionsError(this.settings.baseUrl ? `"${String(input)}" is not a URL` : `"${String(input)}" is not an absolute URL and the client has no baseUrl; pass a full URL or set baseUrl`);
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new HttpClientOptionsError(`"${url.protocol}" URLs are not supported; use http: or https:`);
    if (query) {
      for (const [name, value] of Object.entries(query)) {
        if (value === undefined || value === null) continue;
        if (Array.isArray(value)) for (const item of value as readonly unknown[]) url.searchParams.append(name, String(item));
        else url.searchParams.append(name, String(value));
      }
    }
    return url;
  }
}

const isOk = (status: number): boolean => status >= 200 && status < 300;

async function readBody(response: Dispatcher.ResponseData, method: string, type: 'auto' | 'json' | 'text' | 'bytes'): Promise<unknown> {
  if (method === 'HEAD' || response.statusCode === 204 || response.statusCode === 304) {
    await response.body.dump();
    return undefined;
  }
  if (type === 'bytes') return new Uint8Array(await response.body.arrayBuffer());
  const text = await response.body.text();
  const contentType = response.headers['content-type'];
  const isJson = type === 'json' || (type === 'auto' && /[/+]json\b/i.test(typeof contentType === 'string' ? contentType : ''));
  if (!isJson || text === '') return text === '' ? undefined : text;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    // A JSON content type with a body that is not (an HTML error page from a proxy): keep the text.
    return text;
  }
}

function toHeaders(raw: Dispatcher.ResponseData['headers']): Headers {
  const headers = new Headers();
  for (const name in raw) {
    const value = raw[name];
    if (value === undefined) continue;
    if (Array.isArray(value)) for (const item of value) headers.append(name, item);
    else headers.append(name, value);
  }
  return headers;
}

function resolveSettings(options: HttpClientOptions): ResolvedSettings {
  let baseUrl: URL | undefined;
  if (options.baseUrl !== undefined) {
    try {
      baseUrl = new URL(options.baseUrl);
    } catch {
      throw new HttpClientOptionsError(`baseUrl "${String(options.baseUrl)}" is not an absolute URL`);
    }
  }
  const retry = options.retry === false ? false : { ...DEFAULT_RETRY, ...options.retry };
  if (retry && (!Number.isInteger(retry.maxAttempts) || retry.maxAttempts < 1)) throw new HttpClientOptionsError(`retry.maxAttempts must be an integer >= 1 (got ${retry.maxAttempts})`);
  if (retry) {
    checkDuration('retry.baseDelayMs', retry.baseDelayMs);
    checkDuration('retry.maxDelayMs', retry.maxDelayMs);
  }
  const breaker = options.circuitBreaker === false ? false : { ...DEFAULT_BREAKER, ...options.circuitBreaker };
  if (breaker && (!Number.isInteger(breaker.consecutiveFailures) || breaker.consecutiveFailures < 1)) throw new HttpClientOptionsError(`circuitBreaker.consecutiveFailures must be an integer >= 1 (got ${breaker.consecutiveFailures})`);
  if (breaker) checkDuration('circuitBreaker.halfOpenAfterMs', breaker.halfOpenAfterMs);
  return {
    baseUrl,
    headers: lowerCaseKeys(options.headers),
    timeoutMs: checkDuration('timeoutMs', options.timeoutMs) ?? 10_000,
    deadlineMs: checkDuration('deadlineMs', options.deadlineMs) ?? 30_000,
    deadlineMarginMs: checkDuration('deadlineMarginMs', options.deadlineMarginMs) ?? 500,
    retry,
    breaker,
    redactedHeaders: new Set([...DEFAULT_REDACTED_HEADERS, ...(options.redactHeaders ?? []).map((name) => name.toLowerCase())]),
    redactedParams: new Set([...DEFAULT_REDACTED_QUERY_PARAMS, ...(options.redactQueryParams ?? []).map((name) => name.toLowerCase())]),
    logger: options.logger,
    random: options.random ?? Math.random,
    dispatcher: options.dispatcher,
  };
}

function lowerCaseKeys(headers: Readonly<Record<string, string>> | undefined): Readonly<Record<string, string>> {
  const out = Object.create(null) as Record<string, string>;
  for (const [name, value] of Object.entries(headers ?? {})) out[name.toLowerCase()] = value;
  return out;
}

function checkDuration(name: string, value: number | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) throw new HttpClientOptionsError(`${name} must be a number of milliseconds >= 0 (got ${String(value)})`);
  return value;
}

function causeOf(outcome: AttemptOutcome | undefined): unknown {
  return outcome && outcome.kind !== 'response' ? outcome.cause : undefined;
}

function upstreamRequestId(outcome: AttemptOutcome): string | undefined {
  if (outcome.kind !== 'response') return undefined;
  const h = outcome.headers;
  return h.get('x-request-id') ?? h.get('x-amzn-requestid') ?? h.get('request-id') ?? undefined;
}

function describeError(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const inner = (error as Error & { cause?: unknown }).cause;
  const code = inner instanceof Error ? (inner as Error & { code?: unknown }).code : undefined;
  return typeof code === 'string' ? code : error.name;
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
