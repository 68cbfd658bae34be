import { randomBytes } from 'node:crypto';
import { GetItemCommand } from '@aws-sdk/client-dynamodb';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { expect } from 'chai';
import { handler } from '../../src/http/handler.js';
import { response } from '../../src/http/response.js';
import { IdempotencyConfigError, IdempotencyNotOwnerError, IdempotencyStoreError } from '../../src/idempotency/errors.js';
import { InMemoryIdempotencyStore } from '../../src/idempotency/in-memory-idempotency-store.js';
import { idempotencyMiddleware, type IdempotencyMiddlewareOptions } from '../../src/idempotency/idempotency-middleware.js';
import type { IdempotencyStore } from '../../src/idempotency/idempotency-store.js';
import { startExecution } from '../../src/idempotency/idempotent-execution.js';
import { bodyFieldKeyExtractor } from '../../src/idempotency/key-extractors.js';
import { httpEvent, lambdaContext } from '../fixtures/events.js';
import { backends } from '../support/store-backends.js';

function post(body: unknown, key?: string, path = '/orders', extraHeaders: Record<string, string> = {}): APIGatewayProxyEventV2 {
  return httpEvent({
    method: 'POST',
    path,
    headers: { 'content-type': 'application/json', ...(key !== undefined ? { 'idempotency-key': key } : {}), ...extraHeaders },
    body: JSON.stringify(body),
  });
}

/** A test clock: starts at the real time, moved by hand. */
function testClock() {
  let now = Date.now();
  return { now: () => now, advance: (ms: number) => (now += ms) };
}

/** A route whose function counts its calls and answers with an order id. */
function orderRoute(store: IdempotencyStore, options: Partial<IdempotencyMiddlewareOptions> = {}, fn?: (body: unknown) => Promise<unknown>) {
  const calls: unknown[] = [];
  const main = handler(
    async (body: unknown) => {
      calls.push(body);
      if (fn) return fn(body);
      return { orderId: `order-${calls.length}` };
    },
    { middleware: [idempotencyMiddleware({ store, ...options })] },
  );
  return { main, calls };
}

for (const backend of backends) {
  describe(`idempotencyMiddleware with the ${backend.name}`, function () {
    let store: IdempotencyStore;

    before(async function () {
      await backend.prepare(this);
    });
    beforeEach(async () => {
      store = await backend.idempotencyStore();
    });

    describe('the state table of the README', () => {
      it('no record and a key: saves a pending record, runs the handler, then stores the completed response', async () => {
        // Given a route whose handler looks at the store while it runs
        let seenWhileRunning: string | undefined;
        const main = handler(
          async () => {
            seenWhileRunning = (await store.get('POST /orders#anonymous#k-1', Date.now()))?.status;
            return { orderId: 'o-1' };
          },
          { middleware: [idempotencyMiddleware({ store })] },
        );
        // When a request with a new key arrives
        const response = await main(post({ sku: 'a' }, 'k-1'), lambdaContext());
        // Then the record was pending during the handler and is completed with the response afterwards
        expect(seenWhileRunning).to.equal('pending');
        expect(response.statusCode).to.equal(201);
        const record = await store.get('POST /orders#anonymous#k-1', Date.now());
        expect(record?.status).to.equal('completed');
        expect(JSON.parse(record?.data ?? '{}').body).to.equal(JSON.stringify({ orderId: 'o-1' }));
      });

      it('completed and not expired: returns the stored response with Idempotency-Replayed: true, handler not called', async () => {
        const { main, calls } = orderRoute(store);
        const first = await main(post({ sku: 'a' }, 'k-2'), lambdaContext());
        // When the same request is sent again
        const second = await main(post({ sku: 'a' }, 'k-2'), lambdaContext());
        // Then the handler ran once and the second answer is the first one, marked as a replay
        expect(calls).to.have.length(1);
        expect(second.statusCode).to.equal(first.statusCode);
        expect(second.body).to.equal(first.body);
        expect(second.headers?.['Idempotency-Replayed']).to.equal('true');
        expect(first.headers?.['Idempotency-Replayed']).to.equal(undefined);
      });

      it('the handler throws: the pending record is deleted and a later request runs again', async () => {
        let fail = true;
        const { main, calls } = orderRoute(store, {}, async () => {
          if (fail) throw new Error('payment provider down');
          return { ok: true };
        });
        const failed = await main(post({ sku: 'a' }, 'k-3'), lambdaContext());
        expect(failed.statusCode).to.equal(500);
        expect(await store.get('POST /orders#anonymous#k-3', Date.now())).to.equal(undefined);
        // When the client retries after the cause is fixed
        fail = false;
        const retried = await main(post({ sku: 'a' }, 'k-3'), lambdaContext());
        // Then the handler ran again and succeeded
        expect(retried.statusCode).to.equal(201);
        expect(calls).to.have.length(2);
      });

      it('another request while pending: 409 with Retry-After, handler not called', async () => {
        // Given a first request whose handler is still running
        let release!: () => void;
        const gate = new Promise<void>((resolve) => (release = resolve));
        let entered!: () => void;
        const running = new Promise<void>((resolve) => (entered = resolve));
        const { main, calls } = orderRoute(store, {}, async () => {
          entered();
          await gate;
          return { orderId: 'slow' };
        });
        const first = main(post({ sku: 'a' }, 'k-4'), lambdaContext(20_000));
        await running;
        // When the same request arrives meanwhile
        const second = await main(post({ sku: 'a' }, 'k-4'), lambdaContext());
        // Then it gets 409 with a Retry-After bounded by the first invocation's remaining time
        expect(second.statusCode).to.equal(409);
        expect(JSON.parse(second.body ?? '{}').error.code).to.equal('IDEMPOTENCY_REQUEST_IN_PROGRESS');
        const retryAfter = Number(second.headers?.['Retry-After']);
        expect(retryAfter).to.be.within(1, 20);
        release();
        expect((await first).statusCode).to.equal(201);
        expect(calls).to.have.length(1);
      });

      it('with required: true, a request without a key gets exactly the documented 400 body', async () => {
        const { main, calls } = orderRoute(store, { required: true });
        const response = await main(post({ sku: 'a' }), lambdaContext());
        expect(response.statusCode).to.equal(400);
        const body = JSON.parse(response.body ?? '{}');
        expect(Object.keys(body)).to.deep.equal(['error']);
        expect(Object.keys(body.error)).to.deep.equal(['code', 'message']);
        expect(body.error.code).to.equal('MISSING_IDEMPOTENCY_KEY');
        expect(body.error.message).to.match(/Idempotency-Key header is required/);
        expect(calls).to.have.length(0);
      });

      it('with required: false (default), a request without a key runs every time', async () => {
        const { main, calls } = orderRoute(store);
        await main(post({ sku: 'a' }), lambdaContext());
        await main(post({ sku: 'a' }), lambdaContext());
        expect(calls).to.have.length(2);
      });
    });

    describe('beyond the state table', () => {
      it('50 concurrent requests with one key: the handler runs once, every other request gets 409 or the replay', async () => {
        const { main, calls } = orderRoute(store, {}, async () => {
          await new Promise((resolve) => setTimeout(resolve, 20));
          return { orderId: 'only-one' };
        });
        const responses = await Promise.all(Array.from({ length: 50 }, () => main(post({ sku: 'a' }, 'k-50'), lambdaContext())));
        expect(calls).to.have.length(1);
        const fresh = responses.filter((r) => r.statusCode === 201 && r.headers?.['Idempotency-Replayed'] === undefined);
        const others = responses.filter((r) => !fresh.includes(r));
        expect(fresh).to.have.length(1);
        for (const r of others) {
          const replay = r.statusCode === 201 && r.headers?.['Idempotency-Replayed'] === 'true' && r.body === fresh[0]!.body;
          expect(r.statusCode === 409 || replay, `unexpected ${r.statusCode} ${r.body}`).to.equal(true);
        }
      });

      it('the same key with a different body gets 422 IDEMPOTENCY_KEY_REUSED', async () => {
        const { main, calls } = orderRoute(store);
        await main(post({ sku: 'a' }, 'k-5'), lambdaContext());
        const reused = await main(post({ sku: 'b' }, 'k-5'), lambdaContext());
        expect(reused.statusCode).to.equal(422);
        const body = JSON.parse(reused.body ?? '{}');
        expect(body.error.code).to.equal('IDEMPOTENCY_KEY_REUSED');
        expect(body.error.requestId).to.be.a('string');
        expect(calls).to.have.length(1);
      });

      it('a crashed invocation blocks the key only until its lease ends', async () => {
        const clock = testClock();
        const key = 'POST /orders#anonymous#k-6';
        // Given an invocation that took the key with 3 s left, then crashed (its record stays pending)
        const crashed = await startExecution(store, { key, nowMs: clock.now(), leaseExpiresAt: clock.now() + 3_000, ttlSeconds: 86_400 });
        expect(crashed.kind).to.equal('run');
        const { main, calls } = orderRoute(store, { clock: clock.now });
        // When a retry arrives within the lease it gets 409; after the lease it runs
        expect((await main(post({ sku: 'a' }, 'k-6'), lambdaContext())).statusCode).to.equal(409);
        clock.advance(3_000);
        const retried = await main(post({ sku: 'a' }, 'k-6'), lambdaContext());
        expect(retried.statusCode).to.equal(201);
        expect(calls).to.have.length(1);
      });

      it('a remaining time of 0 means the lease is already over, not "no lease"', async () => {
        const clock = testClock();
        const key = 'POST /orders#anonymous#k-7';
        const crashed = await startExecution(store, { key, nowMs: clock.now(), leaseExpiresAt: clock.now() + 0, ttlSeconds: 86_400 });
        expect(crashed.kind).to.equal('run');
        const { main, calls } = orderRoute(store, { clock: clock.now });
        const response = await main(post({ sku: 'a' }, 'k-7'), lambdaContext());
        expect(response.statusCode).to.equal(201);
        expect(calls).to.have.length(1);
      });

      it('only the owner may complete or delete a pending record', async () => {
        const now = Date.now();
        const key = 'POST /orders#anonymous#k-8';
        const started = await startExecution(store, { key, nowMs: now, leaseExpiresAt: now + 60_000, ttlSeconds: 86_400 });
        if (started.kind !== 'run') throw new Error('expected to own the key');
        let error: unknown;
        try {
          await store.release(key, 'someone-else');
        } catch (e) {
          error = e;
        }
        expect(error).to.be.instanceOf(IdempotencyNotOwnerError);
        error = undefined;
        try {
          await store.complete(key, 'someone-else', '{}', Math.floor(now / 1000) + 60);
        } catch (e) {
          error = e;
        }
        expect(error).to.be.instanceOf(IdempotencyNotOwnerError);
        expect((await store.get(key, now))?.status).to.equal('pending');
        await store.release(key, started.owner);
        expect(await store.get(key, now)).to.equal(undefined);
      });

      it('expiry is checked from the stored TTL on read, even while the item still exists', async () => {
        const clock = testClock();
        const { main, calls } = orderRoute(store, { clock: clock.now, ttlSeconds: 60 });
        await main(post({ sku: 'a' }, 'k-9'), lambdaContext());
        clock.advance(61_000);
        // The DynamoDB item is still there (TTL deletion lags); the store treats it as gone
        if (backend.raw) {
          const { client, tableName } = backend.raw();
          const raw = await client.send(new GetItemCommand({ TableName: tableName, Key: { pk: { S: 'POST /orders#anonymous#k-9' } }, ConsistentRead: true }));
          expect(raw.Item?.status?.S).to.equal('completed');
        }
        expect(await store.get('POST /orders#anonymous#k-9', clock.now())).to.equal(undefined);
        const again = await main(post({ sku: 'a' }, 'k-9'), lambdaContext());
        expect(again.headers?.['Idempotency-Replayed']).to.equal(undefined);
        expect(calls).to.have.length(2);
      });

      it('keys are namespaced per route: two routes never share a record', async () => {
        const orders = orderRoute(store);
        const refunds = orderRoute(store);
        await orders.main(post({ sku: 'a' }, 'same-key', '/orders'), lambdaContext());
        const other = await refunds.main(post({ sku: 'a' }, 'same-key', '/refunds'), lambdaContext());
        expect(other.headers?.['Idempotency-Replayed']).to.equal(undefined);
        expect(orders.calls).to.have.length(1);
        expect(refunds.calls).to.have.length(1);
      });

      it('an over-long key gets 400 IDEMPOTENCY_KEY_TOO_LONG', async () => {
        const { main, calls } = orderRoute(store);
        const response = await main(post({ sku: 'a' }, 'x'.repeat(256)), lambdaContext());
        expect(response.statusCode).to.equal(400);
        expect(JSON.parse(response.body ?? '{}').error.code).to.equal('IDEMPOTENCY_KEY_TOO_LONG');
        expect(calls).to.have.length(0);
      });

      it('a large response is stored compressed and replayed whole', async () => {
        const big = { items: Array.from({ length: 4000 }, (_, i) => ({ id: i, name: `item number ${i}` })) };
        const { main, calls } = orderRoute(store, {}, async () => big);
        const first = await main(post({ sku: 'a' }, 'k-big'), lambdaContext());
        expect(first.body!.length).to.be.greaterThan(100_000);
        const replay = await main(post({ sku: 'a' }, 'k-big'), lambdaContext());
        expect(replay.body).to.equal(first.body);
        expect(calls).to.have.length(1);
      });

      it('a response too large for an item keeps the key completed and says so on replays', async () => {
        const huge = { blob: randomBytes(450 * 1024).toString('base64') };
        const { main, calls } = orderRoute(store, {}, async () => huge);
        const errors: string[] = [];
        const original = console.error;
        console.error = (line: string) => errors.push(line);
        let first;
        try {
          first = await main(post({ sku: 'a' }, 'k-huge'), lambdaContext());
        } finally {
          console.error = original;
        }
        expect(first.statusCode).to.equal(201);
        expect(first.body).to.equal(JSON.stringify(huge));
        expect(errors.join('\n')).to.contain('FW_ERR_IDEMPOTENCY_RESPONSE_TOO_LARGE');
        const replay = await main(post({ sku: 'a' }, 'k-huge'), lambdaContext());
        expect(calls).to.have.length(1);
        expect(replay.statusCode).to.equal(201);
        expect(replay.headers?.['Idempotency-Response-Omitted']).to.equal('true');
      });

      it('reads the key from a body field when told to, and names it in the 400', async () => {
        const { main, calls } = orderRoute(store, { keyExtractor: bodyFieldKeyExtractor('orderRef'), required: true });
        await main(post({ orderRef: 'r-1', sku: 'a' }), lambdaContext());
        const replay = await main(post({ orderRef: 'r-1', sku: 'a' }), lambdaContext());
        expect(replay.headers?.['Idempotency-Replayed']).to.equal('true');
        const missing = await main(post({ sku: 'a' }), lambdaContext());
        expect(JSON.parse(missing.body ?? '{}').error.message).to.match(/body field "orderRef" is required/);
        expect(calls).to.have.length(1);
      });
    });
  });
}

describe('idempotencyMiddleware, store-independent behaviour', () => {
  it('marks the handler idempotent in handlerInfo, readable without invoking it', () => {
    const { main } = orderRoute(new InMemoryIdempotencyStore());
    expect(main.handlerInfo.middleware).to.deep.equal(['idempotency']);
    expect(main.handlerInfo.idempotent).to.equal(true);
  });

  it('does not store a 5xx answer: the record is deleted so a retry runs the handler', async () => {
    const store = new InMemoryIdempotencyStore();
    let status = 503;
    const main = handler(async () => response({ statusCode: status, body: { ok: status < 500 } }), {
      middleware: [idempotencyMiddleware({ store })],
    });
    expect((await main(post({}, 'k-5xx'), lambdaContext())).statusCode).to.equal(503);
    expect(await store.get('POST /orders#anonymous#k-5xx', Date.now())).to.equal(undefined);
    status = 200;
    const retried = await main(post({}, 'k-5xx'), lambdaContext());
    expect(retried.statusCode).to.equal(200);
    expect(retried.headers?.['Idempotency-Replayed']).to.equal(undefined);
    expect((await main(post({}, 'k-5xx'), lambdaContext())).headers?.['Idempotency-Replayed']).to.equal('true');
  });

  it('fails closed when the store cannot be reached before the handler: 500, handler not run', async () => {
    const broken: InMemoryIdempotencyStore = Object.assign(new InMemoryIdempotencyStore(), {
      acquire: async () => {
        throw new IdempotencyStoreError('acquire a record', new Error('ResourceNotFoundException: table not found'));
      },
    });
    const { main, calls } = orderRoute(broken);
    const original = console.log;
    console.log = () => undefined;
    let answer;
    try {
      answer = await main(post({ sku: 'a' }, 'k-down'), lambdaContext());
    } finally {
      console.log = original;
    }
    expect(answer.statusCode).to.equal(500);
    expect(calls).to.have.length(0);
  });

  it('checks its options when created', () => {
    expect(() => idempotencyMiddleware({ store: undefined as unknown as InMemoryIdempotencyStore })).to.throw(IdempotencyConfigError, /store/);
    expect(() => idempotencyMiddleware({ store: new InMemoryIdempotencyStore(), ttlSeconds: 0 })).to.throw(IdempotencyConfigError, /ttlSeconds/);
    expect(() => idempotencyMiddleware({ store: new InMemoryIdempotencyStore(), scope: ' ' })).to.throw(IdempotencyConfigError, /scope/);
  });
});
