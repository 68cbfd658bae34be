import { DEFAULT_IDEMPOTENCY_TABLE, ENV } from '@framework/core/names';
import type { IdempotencyStore } from './idempotency-store.js';
import { InMemoryIdempotencyStore } from './in-memory-idempotency-store.js';
import { createDynamoDBIdempotencyStore } from './dynamodb-idempotency-store.js';
import { DevServerIdempotencyStore, devWorkerServiceCall } from './dev-server-idempotency-store.js';

/**
 * Inside a deployed Lambda function: the Lambda service sets `AWS_LAMBDA_FUNCTION_NAME`, and the dev server sets
 * `FW_DEV_ENDPOINT`, which wins (it may run handlers with Lambda-like variables).
 */
export function isInsideLambda(env: NodeJS.ProcessEnv = process.env): boolean {
  return Boolean(env.AWS_LAMBDA_FUNCTION_NAME) && !env[ENV.devEndpoint];
}

/** The table the infra package injects (`FW_IDEMPOTENCY_TABLE`), else `framework-idempotency`. */
export function idempotencyTableFromEnv(env: NodeJS.ProcessEnv = process.env): string {
  return env[ENV.idempotencyTable] || DEFAULT_IDEMPOTENCY_TABLE;
}

// One in-memory store per process (tests, scripts): a saga or a retried request must find the records an earlier
// invocation wrote. Keys are namespaced per function and caller, so sharing is safe.
let processStore: InMemoryIdempotencyStore | undefined;

/** The process-wide in-memory store used in local development. */
export function sharedInMemoryIdempotencyStore(): InMemoryIdempotencyStore {
  processStore ??= new InMemoryIdempotencyStore();
  return processStore;
}

/**
 * DynamoDB inside a deployed function (table from the environment); inside `fw dev`, the dev server's store (shared by
 * every function, kept across worker replacements and restarts); the process-wide in-memory store otherwise.
 * Async because the DynamoDB SDK is imported only when it is used.
 */
export async function createDefaultIdempotencyStore(env: NodeJS.ProcessEnv = process.env): Promise<IdempotencyStore> {
  if (isInsideLambda(env)) return createDynamoDBIdempotencyStore({ tableName: idempotencyTableFromEnv(env) });
  const devServer = devWorkerServiceCall(env);
  if (devServer) return new DevServerIdempotencyStore(devServer);
  return sharedInMemoryIdempotencyStore();
}
