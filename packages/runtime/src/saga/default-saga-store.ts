import { idempotencyTableFromEnv, isInsideLambda } from '../idempotency/default-idempotency-store.js';
import { devWorkerServiceCall } from '../idempotency/dev-server-idempotency-store.js';
import { DevServerSagaStore } from './dev-server-saga-store.js';
import { createDynamoDBSagaStore } from './dynamodb-saga-store.js';
import { InMemorySagaStore } from './in-memory-saga-store.js';
import type { SagaStore } from './saga-store.js';

// One per process, so a saga re-run in the same dev server finds the run an earlier invocation stored.
let processStore: InMemorySagaStore | undefined;

/**
 * DynamoDB inside a deployed function (the idempotency table), the dev server's store inside `fw dev` (every function's
 * runs in one place, on the dev server's clock), the process-wide in-memory store otherwise.
 */
export async function createDefaultSagaStore(env: NodeJS.ProcessEnv = process.env): Promise<SagaStore> {
  if (isInsideLambda(env)) return createDynamoDBSagaStore({ tableName: idempotencyTableFromEnv(env) });
  const devServer = devWorkerServiceCall(env);
  if (devServer) return new DevServerSagaStore(devServer);
  processStore ??= new InMemorySagaStore();
  return processStore;
}
