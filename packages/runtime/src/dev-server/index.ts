/**
 * `@framework/runtime/dev-server`: the few runtime values `fw dev`'s own process uses (the gateway's error body, the
 * API key reader, the in-memory saga store, the idempotency record checks), without the rest of the runtime: the
 * dev server loads this before its first request, and the whole package is some 70 modules.
 */
export { errorResponse } from '../http/error-response.js';
export { apiKeyOf } from '../context/api-key-auth.js';
export { InMemorySagaStore } from '../saga/in-memory-saga-store.js';
export { isLiveRecord } from '../idempotency/idempotency-store.js';
export { IdempotencyNotOwnerError } from '../idempotency/errors.js';
