export * from './errors.js';
export * from './idempotency-store.js';
export * from './in-memory-idempotency-store.js';
export * from './dynamodb-idempotency-store.js';
export * from './default-idempotency-store.js';
export * from './dev-server-idempotency-store.js';
export * from './fingerprint.js';
export * from './key-extractors.js';
export * from './caller-namespace.js';
export {
  DEFAULT_LEASE_SECONDS,
  DEFAULT_MAX_KEY_LENGTH,
  DEFAULT_TTL_SECONDS,
  type ExecutionRequest,
  type ExecutionStart,
  startExecution,
  completeExecution,
  abandonExecution,
} from './idempotent-execution.js';
export * from './idempotency-middleware.js';
export * from './make-idempotent.js';
export { COMPRESS_ABOVE_BYTES, MAX_STORED_BYTES } from './private/stored-data.js';
