import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { createDynamoDBIdempotencyStore } from '../../src/idempotency/dynamodb-idempotency-store.js';
import type { IdempotencyStore } from '../../src/idempotency/idempotency-store.js';
import { InMemoryIdempotencyStore } from '../../src/idempotency/in-memory-idempotency-store.js';
import { createDynamoDBSagaStore } from '../../src/saga/dynamodb-saga-store.js';
import { InMemorySagaStore } from '../../src/saga/in-memory-saga-store.js';
import type { SagaStore } from '../../src/saga/saga-store.js';
import { dynamoDBLocal, dynamoDBLocalUnavailable } from './dynamodb-local.js';

/** A store backend the same tests run against: the in-memory store and the DynamoDB store on DynamoDB Local. */
export interface Backend {
  readonly name: string;
  /** Throws mocha's skip when the backend cannot run here. */
  prepare(context: Mocha.Context): Promise<void>;
  idempotencyStore(): Promise<IdempotencyStore>;
  sagaStore(): Promise<SagaStore>;
  /** The raw DynamoDB client and table of the last store made (DynamoDB only). */
  raw?: () => { client: DynamoDBClient; tableName: string };
}

export const inMemoryBackend: Backend = {
  name: 'in-memory store',
  async prepare() {},
  async idempotencyStore() {
    return new InMemoryIdempotencyStore();
  },
  async sagaStore() {
    return new InMemorySagaStore();
  },
};

let last: { client: DynamoDBClient; tableName: string } | undefined;
const clients: DynamoDBClient[] = [];

export const dynamoDBBackend: Backend = {
  name: 'DynamoDB store on DynamoDB Local',
  async prepare(context) {
    const reason = dynamoDBLocalUnavailable();
    if (reason) {
      // Skipped with the reason: DynamoDB Local runs on Java.
      console.warn(`skipping DynamoDB Local tests: ${reason}`);
      context.skip();
    }
    context.timeout(90_000);
    await dynamoDBLocal();
  },
  async idempotencyStore() {
    const local = await dynamoDBLocal();
    const tableName = await local.createTable('idem');
    const client = local.client();
    clients.push(client);
    last = { client, tableName };
    return createDynamoDBIdempotencyStore({ tableName, client });
  },
  async sagaStore() {
    const local = await dynamoDBLocal();
    const tableName = await local.createTable('saga');
    const client = local.client();
    clients.push(client);
    last = { client, tableName };
    return createDynamoDBSagaStore({ tableName, client });
  },
  raw: () => {
    if (!last) throw new Error('no DynamoDB store made yet');
    return last;
  },
};

export const backends: readonly Backend[] = [inMemoryBackend, dynamoDBBackend];

after(() => {
  for (const client of clients.splice(0)) client.destroy();
});
