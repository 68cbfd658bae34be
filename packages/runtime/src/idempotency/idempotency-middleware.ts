import { errorResponse } from '../http/error-response.js';
import type { HttpResponse, Middleware, MiddlewareRequest } from '../middleware/types.js';
import { callerIdempotencyNamespace, namespacedIdempotencyKey } from './caller-namespace.js';
import { IdempotencyConfigError, IdempotencyResponseTooLargeError } from './errors.js';
import { requestFingerprint } from './fingerprint.js';
import type { IdempotencyStore, IdempotencyStoreInput } from './idempotency-store.js';
import {
  abandonExecution,
  completeExecution,
  DEFAULT_LEASE_SECONDS,
  DEFAULT_MAX_KEY_LENGTH,
  DEFAULT_TTL_SECONDS,
  leaseEnd,
  remainingTimeOf,
  startExecution,
} from './idempotent-execution.js';
import { DEFAULT_IDEMPOTENCY_HEADER, headerKeyExtractor, type KeyExtractor } from './key-extractors.js';

export interface IdempotencyMiddlewareOptions {
  /** Where records live: `createDefaultIdempotencyStore()` (a promise is fine), the DynamoDB or the in-memory store. */
  readonly store: IdempotencyStoreInput;
  /**
   * How the key is read.
   * @default headerKeyExtractor('Idempotency-Key')
   */
  readonly keyExtractor?: KeyExtractor | ((request: MiddlewareRequest<unknown>) => string | undefined);
  /**
   * Lifetime of a record, seconds.
   * @default 86400
   */
  readonly ttlSeconds?: number;
  /**
   * When true, a request without a key gets 400 MISSING_IDEMPOTENCY_KEY; when false it runs without idempotency.
   * @default false
   */
  readonly required?: boolean;
  /**
   * Namespace of the keys, so two functions never share a record for the same key.
   * @default - the event's route key (`POST /orders`), else the Lambda function name
   */
  readonly scope?: string;
  /**
   * Whose records a request may see, inside the scope: two requests share a record only when they have the same
   * namespace. Return, for example, a tenant id to let every user of a tenant retry each other's operations. An
   * empty or non-string value fails the request (500, handler not run) rather than sharing records by accident.
   * @default - the caller (`callerIdempotencyNamespace`): the token's `sub`, else its `client_id`; requests
   * without a token share one namespace per route
   */
  readonly namespace?: (request: MiddlewareRequest<unknown>) => string;
  /**
   * Longer keys get 400 IDEMPOTENCY_KEY_TOO_LONG.
   * @default 255
   */
  readonly maxKeyLength?: number;
  /**
   * Lease of a pending record when the Lambda context cannot tell the remaining time, seconds.
   * @default 900
   */
  readonly leaseSeconds?: number;
  /**
   * The clock, epoch milliseconds (tests move it to check leases and expiry).
   * @default Date.now
   */
  readonly clock?: () => number;
}

/** What `before` leaves for `after` / `onError` when this invocation owns the record. */
interface OwnedRecord {
  readonly store: IdempotencyStore;
  readonly key: string;
  readonly owner: string;
}

/** The middleware's name, in `handlerInfo.middleware` and in logs. */
export const IDEMPOTENCY_MIDDLEWARE_NAME = 'idempotency';
export const IDEMPOTENCY_REPLAYED_HEADER = 'Idempotency-Replayed';
export const IDEMPOTENCY_RESPONSE_OMITTED_HEADER = 'Idempotency-Response-Omitted';

/**
 * Responses that are not stored: the record is deleted so that a retry runs the handler again. Server errors and
 * "try again" answers (401/403 from a later auth check, 408, 429) describe the attempt, not the operation.
 */
function isStorable(status: number): boolean {
  return status < 500 && status !== 401 && status !== 403 && status !== 408 && status !== 429;
}

/**
 * Runs a route's handler at most once per key (the runtime README's "Idempotency and sagas" section). Place it in the
 * handler's `middleware` array after authentication, so a rejected request never reaches the store.
 */
export function idempotencyMiddleware(options: IdempotencyMiddlewareOptions): Middleware<unknown> {
  if (!options || options.store === undefined || options.store === null) {
    throw new IdempotencyConfigError('idempotencyMiddleware: `store` is required, e.g. { store: createDefaultIdempotencyStore() }.');
  }
  const ttlSeconds = positive('ttlSeconds', options.ttlSeconds, DEFAULT_TTL_SECONDS);
  const maxKeyLength = positive('maxKeyLength', options.maxKeyLength, DEFAULT_MAX_KEY_LENGTH);
  const leaseSeconds = positive('leaseSeconds', options.leaseSeconds, DEFAULT_LEASE_SECONDS);
  if (options.scope !== undefined && options.scope.trim() === '') throw new IdempotencyConfigError('idempotencyMiddleware: `scope` is empty; omit it to use the route.');
  if (options.namespace !== undefined && typeof options.namespace !== 'function') {
    throw new IdempotencyConfigError('idempotencyMiddleware: `namespace` must be a function of the request returning a string; omit it to namespace keys by caller.');
  }
  const namespaceOf = options.namespace ?? callerIdempotencyNamespace;
  const extractor = options.keyExtractor ?? headerKeyExtractor(DEFAULT_IDEMPOTENCY_HEADER);
  const source = 'source' in extractor && typeof extractor.source === 'string' ? extractor.source : 'the idempotency key';
  const required = options.required ?? false;
  const clock = options.clock ?? Date.now;
  const storePromise = Promise.resolve(options.store);
  // A rejected store promise must not crash the process before the first request; it surfaces on use.
  storePromise.catch(() => undefined);

  return {
    name: IDEMPOTENCY_MIDDLEWARE_NAME,

    async before(request) {
      const key = extractor(request);
      if (key === undefined || key === '') {
        if (!required) return undefined;
        // Code and message only: the body clients are documented to receive (README), nothing internal.
        return errorResponse(400, 'MISSING_IDEMPOTENCY_KEY', `${capitalize(source)} is required for this request: send a unique key (for example a UUID) per operation.`, undefined);
      }
      if (key.length > maxKeyLength) {
        return errorResponse(400, 'IDEMPOTENCY_KEY_TOO_LONG', `${capitalize(source)} has ${key.length} characters; the maximum is ${maxKeyLength}.`, requestIdOf(request));
      }
      const namespace = namespaceOf(request);
      if (typeof namespace !== 'string' || namespace === '') {
        throw new IdempotencyConfigError(`idempotencyMiddleware: \`namespace\` returned ${namespace === '' ? 'an empty string' : typeof namespace}; it must return a non-empty string.`);
      }
      const store = await storePromise;
      const fullKey = namespacedIdempotencyKey(scopeOf(request, options.scope), namespace, key);
      const nowMs = clock();
      const start = await startExecution(store, {
        key: fullKey,
        fingerprint: requestFingerprint(request.event),
        nowMs,
        leaseExpiresAt: leaseEnd(nowMs, remainingTimeOf(request.lambdaContext), leaseSeconds),
        ttlSeconds,
      });
      switch (start.kind) {
        case 'run':
          request.internal[IDEMPOTENCY_MIDDLEWARE_NAME] = { store, key: fullKey, owner: start.owner } satisfies OwnedRecord;
          return undefined;
        case 'replay':
          return replay(start.data);
        case 'reused':
          return errorResponse(
            422,
            'IDEMPOTENCY_KEY_REUSED',
            'This idempotency key was already used with a different request (method, path or body). Use a new key for a new operation.',
            requestIdOf(request),
          );
        case 'in-progress': {
          return errorResponse(
            409,
            'IDEMPOTENCY_REQUEST_IN_PROGRESS',
            `A request with this idempotency key is still being processed; retry after ${start.retryAfterSeconds} s.`,
            requestIdOf(request),
            { headers: { 'Retry-After': String(start.retryAfterSeconds) } },
          );
        }
      }
    },

    async after(request) {
      const owned = takeOwned(request);
      if (!owned) return;
      const response = request.response;
      if (!response || !isStorable(response.statusCode)) {
        await safely('delete', owned, () => abandonExecution(owned.store, owned.key, owned.owner));
        return;
      }
      const stored: HttpResponse = {
        statusCode: response.statusCode,
        headers: { ...response.headers },
        body: response.body,
        ...(response.isBase64Encoded ? { isBase64Encoded: true } : {}),
        ...(response.cookies ? { cookies: [...response.cookies] } : {}),
      };
      await safely('complete', owned, async () => {
        try {
          await completeExecution(owned.store, owned.key, owned.owner, JSON.stringify(stored), clock(), ttlSeconds);
        } catch (error) {
          if (!(error instanceof IdempotencyResponseTooLargeError)) throw error;
          // The effect happened: keep the key completed (never run twice) and say so on replays instead of
          // silently dropping the body.
          logProblem('complete', owned, error);
          const omitted = { statusCode: stored.statusCode, headers: withoutBodyHeaders(stored.headers), body: '', omitted: true };
          await completeExecution(owned.store, owned.key, owned.owner, JSON.stringify(omitted), clock(), ttlSeconds);
        }
      });
    },

    async onError(request) {
      const owned = takeOwned(request);
      if (!owned) return;
      // The handler threw: there is no answer to replay, so delete the pending record and a later request with the
      // same key runs again instead of waiting on a record no one will complete.
      await safely('delete', owned, () => abandonExecution(owned.store, owned.key, owned.owner));
    },
  };
}

function positive(name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (!Number.isFinite(value) || value <= 0) throw new IdempotencyConfigError(`idempotencyMiddleware: \`${name}\` must be a positive number, got ${value}.`);
  return value;
}

/** The key namespace: explicit scope, else the route (one function per route, the same locally and deployed). */
function scopeOf(request: MiddlewareRequest<unknown>, scope: string | undefined): string {
  if (scope) return scope;
  const routeKey = request.event.routeKey;
  if (routeKey && routeKey !== '$default') return routeKey;
  return request.lambdaContext?.functionName || process.env.AWS_LAMBDA_FUNCTION_NAME || 'default';
}

function takeOwned(request: MiddlewareRequest<unknown>): OwnedRecord | undefined {
  const owned = request.internal[IDEMPOTENCY_MIDDLEWARE_NAME] as OwnedRecord | undefined;
  // after and onError may both run for one request (an after hook that throws); act once.
  delete request.internal[IDEMPOTENCY_MIDDLEWARE_NAME];
  return owned;
}

function replay(data: string): HttpResponse {
  const stored = JSON.parse(data) as HttpResponse & { omitted?: boolean };
  const headers: Record<string, string> = { ...stored.headers, [IDEMPOTENCY_REPLAYED_HEADER]: 'true' };
  if (stored.omitted) headers[IDEMPOTENCY_RESPONSE_OMITTED_HEADER] = 'true';
  return {
    statusCode: stored.statusCode,
    headers,
    body: stored.body ?? '',
    ...(stored.isBase64Encoded ? { isBase64Encoded: true } : {}),
    ...(stored.cookies ? { cookies: stored.cookies } : {}),
  };
}

function withoutBodyHeaders(headers: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    const lower = name.toLowerCase();
    if (lower !== 'content-type' && lower !== 'content-length' && lower !== 'content-encoding') out[name] = value;
  }
  return out;
}

function requestIdOf(request: MiddlewareRequest<unknown>): string {
  return request.lambdaContext?.awsRequestId ?? request.event.requestContext?.requestId ?? '';
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/**
 * A store failure after the handler ran must not replace the handler's answer (the effect happened; the client
 * should see it). It is logged with its code; the record's lease then decides when the key frees up.
 */
async function safely(operation: string, owned: OwnedRecord, action: () => Promise<void>): Promise<void> {
  try {
    await action();
  } catch (error) {
    logProblem(operation, owned, error);
  }
}

function logProblem(operation: string, owned: OwnedRecord, error: unknown): void {
  const code = error !== null && typeof error === 'object' && 'code' in error ? String((error as { code: unknown }).code) : undefined;
  console.error(
    JSON.stringify({
      level: 'error',
      message: `idempotency: could not ${operation} the record`,
      key: owned.key,
      code,
      error: error instanceof Error ? `${error.name}: ${error.message}` : String(error),
    }),
  );
}
