import { randomBytes } from 'node:crypto';
import { DEV_WORKER_SERVICES_KEY } from '@framework/core/names';
import { expect } from 'chai';
import { DevServerIdempotencyStore } from '../../src/idempotency/dev-server-idempotency-store.js';
import { IdempotencyNotOwnerError, IdempotencyResponseTooLargeError, IdempotencyStoreError, SagaLeaseLostError } from '../../src/idempotency/errors.js';
import { createDefaultIdempotencyStore, isInsideLambda } from '../../src/idempotency/default-idempotency-store.js';
import { DynamoDBIdempotencyStore } from '../../src/idempotency/dynamodb-idempotency-store.js';
import { InMemoryIdempotencyStore } from '../../src/idempotency/in-memory-idempotency-store.js';
import { createDefaultSagaStore } from '../../src/saga/default-saga-store.js';
import { DevServerSagaStore } from '../../src/saga/dev-server-saga-store.js';
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

  it('under the dev server without its worker service (a script with the dev variables) and elsewhere: the process-wide in-memory store', async () => {
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

  describe('inside a fw dev worker (FW_DEV_ENDPOINT set and the worker service installed)', () => {
    const key = Symbol.for(DEV_WORKER_SERVICES_KEY);
    const globals = globalThis as Record<symbol, unknown>;
    const calls: Array<{ service: string; request: unknown }> = [];
    let answer: (request: unknown) => Promise<unknown>;
    beforeEach(() => {
      calls.length = 0;
      globals[key] = (service: string, request: unknown) => {
        calls.push({ service, request });
        return answer(request);
      };
    });
    afterEach(() => {
      delete globals[key];
    });
    const dev = { FW_DEV_ENDPOINT: 'http://127.0.0.1:3000' };

    it("uses the dev server's store: each operation is one call to its idempotency service", async () => {
      answer = async () => ({ acquired: true });
      const store = await createDefaultIdempotencyStore(dev);
      expect(store).to.be.instanceOf(DevServerIdempotencyStore);
      const record = { key: 'POST /orders#anonymous#k', status: 'pending', owner: 'o', leaseExpiresAt: 2, expiresAt: 3 } as const;
      expect(await store.acquire(record, 1)).to.deep.equal({ acquired: true });
      answer = async () => ({});
      expect(await store.get('POST /orders#anonymous#k', 1)).to.equal(undefined);
      expect(calls).to.deep.equal([
        { service: 'idempotency', request: { op: 'acquire', record, nowMs: 1 } },
        { service: 'idempotency', request: { op: 'get', key: 'POST /orders#anonymous#k', nowMs: 1 } },
      ]);
    });

    it("keeps saga runs in the dev server's saga service: leases travel as durations, a lost lease is SagaLeaseLostError", async () => {
      const sagas = await createDefaultSagaStore(dev);
      expect(sagas).to.be.instanceOf(DevServerSagaStore);
      const initial = { status: 'running', completed: [], compensated: [], startedAt: 1000, updatedAt: 1000 } as const;
      answer = async () => ({ claimed: false, leaseLeftMs: 4000 });
      expect(await sagas.claim('saga#s#1', 'o', 6000, 1000, initial, 9)).to.deep.equal({ claimed: false, leaseExpiresAt: 5000 });
      expect(calls).to.deep.equal([{ service: 'saga', request: { op: 'claim', key: 'saga#s#1', owner: 'o', leaseMs: 5000, nowMs: 1000, initial, expiresAt: 9 } }]);
      answer = async () => ({ leaseLost: true });
      await expectRejection(sagas.save('saga#s#1', 'o', initial, 0, 9), SagaLeaseLostError);
    });

    it("turns the dev server's refusals and failures into the runtime's errors, and checks sizes before sending", async () => {
      const store = await createDefaultIdempotencyStore(dev);
      answer = async () => ({ notOwner: true });
      await expectRejection(store.complete('k', 'o', '{}', 3), IdempotencyNotOwnerError);
      await expectRejection(store.release('k', 'o'), IdempotencyNotOwnerError);
      answer = async () => {
        throw new Error('journal not writable');
      };
      await expectRejection(store.get('k', 1), IdempotencyStoreError);
      calls.length = 0;
      await expectRejection(store.complete('k', 'o', randomBytes(500 * 1024).toString('base64'), 3), IdempotencyResponseTooLargeError);
      expect(calls).to.deep.equal([]);
    });
  });
});

async function expectRejection(promise: Promise<unknown>, type: new (...args: never[]) => Error): Promise<void> {
  try {
    await promise;
  } catch (error) {
    expect(error).to.be.instanceOf(type);
    return;
  }
  expect.fail(`expected a ${type.name}`);
}
