import { expect } from 'chai';
import { createDefaultIdempotencyStore, isInsideLambda } from '../../src/idempotency/default-idempotency-store.js';
import { DynamoDBIdempotencyStore } from '../../src/idempotency/dynamodb-idempotency-store.js';
import { InMemoryIdempotencyStore } from '../../src/idempotency/in-memory-idempotency-store.js';
import { createDefaultSagaStore } from '../../src/saga/default-saga-store.js';
import { DynamoDBSagaStore } from '../../src/saga/dynamodb-saga-store.js';
import { InMemorySagaStore } from '../../src/saga/in-memory-saga-store.js';

describe('createDefaultIdempotencyStore / createDefaultSagaStore', () => {
  const lambdaEnv = { AWS_LAMBDA_FUNCTION_NAME: 'acme-prod-route-post-orders', AWS_REGION: 'us-east-1', FW_IDEMPOTENCY_TABLE: 'acme-prod-idempotency' };

  it('inside a deployed function: DynamoDB on the table the environment names (no request is sent)', async () => {
    const store = await createDefaultIdempotencyStore(lambdaEnv);
    expect(store).to.be.instanceOf(DynamoDBIdempotencyStore);
    expect((store as DynamoDBIdempotencyStore).tableName).to.equal('acme-prod-idempotency');
    (store as DynamoDBIdempotencyStore).client.destroy();
    const sagas = await createDefaultSagaStore(lambdaEnv);
    expect(sagas).to.be.instanceOf(DynamoDBSagaStore);
    expect((sagas as DynamoDBSagaStore).tableName).to.equal('acme-prod-idempotency');
    (sagas as DynamoDBSagaStore).client.destroy();
  });

  it('falls back to the framework-idempotency table when the environment names none', async () => {
    const store = (await createDefaultIdempotencyStore({ AWS_LAMBDA_FUNCTION_NAME: 'f', AWS_REGION: 'us-east-1' })) as DynamoDBIdempotencyStore;
    expect(store.tableName).to.equal('framework-idempotency');
    store.client.destroy();
  });

  it('under the dev server (FW_DEV_ENDPOINT set, even with a Lambda name) and elsewhere: the process-wide in-memory store', async () => {
    const dev = { ...lambdaEnv, FW_DEV_ENDPOINT: 'http://127.0.0.1:3000' };
    expect(isInsideLambda(dev)).to.equal(false);
    const a = await createDefaultIdempotencyStore(dev);
    const b = await createDefaultIdempotencyStore({});
    expect(a).to.be.instanceOf(InMemoryIdempotencyStore);
    expect(a).to.equal(b);
    const s1 = await createDefaultSagaStore(dev);
    expect(s1).to.be.instanceOf(InMemorySagaStore);
    expect(s1).to.equal(await createDefaultSagaStore({}));
  });
});
