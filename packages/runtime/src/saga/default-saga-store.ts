import { idempotencyTableFromEnv, isInsideLambda } from '../idempotency/default-idempotency-store.js';
import { createDynamoDBSagaStore } from './dynamodb-saga-store.js';
import { InMemorySagaStore } from './in-memory-saga-store.js';
import type { SagaStore } from './saga-store.js';

// One per process, so a saga re-run in the same dev server finds the run an earlier invocation stored.
let processStore: InMemorySagaStore | undefined;

/** DynamoDB inside a deployed function (the idempotency table), the process-wide in-memory store otherwise. */
export async function createDefaultSagaStore(env: NodeJS.ProcessEnv = process.env): Promise<SagaStore> {
  if (isInsideLambda(env)) return createDynamoDBSagaStore({ tableName: idempotencyTableFromEnv(env) });
  processStore ??= new InMemorySagaStore();
  return processStore;
}
