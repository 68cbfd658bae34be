import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { expect } from 'chai';
import { authFromEvent } from '../../src/context/auth.js';
import { runWithTenant } from '../../src/context/tenant.js';
import { handler } from '../../src/http/handler.js';
import { callerIdempotencyNamespace, namespacedIdempotencyKey } from '../../src/idempotency/caller-namespace.js';
import { IdempotencyConfigError } from '../../src/idempotency/errors.js';
import { idempotencyMiddleware, type IdempotencyMiddlewareOptions } from '../../src/idempotency/idempotency-middleware.js';
import type { IdempotencyStore } from '../../src/idempotency/idempotency-store.js';
import type { MiddlewareRequest } from '../../src/middleware/types.js';
import { httpEvent, lambdaContext } from '../fixtures/events.js';
import { backends } from '../support/store-backends.js';

/** A POST /orders with an idempotency key, sent by the holder of `claims` (none: anonymous). */
function post(body: unknown, key: string, claims?: Record<string, unknown>): APIGatewayProxyEventV2 {
  return httpEvent({
    method: 'POST',
    path: '/orders',
    headers: { 'content-type': 'application/json', 'idempotency-key': key },
    body: JSON.stringify(body),
    ...(claims ? { claims } : {}),
  });
}

const alice = { sub: 'user-alice', client_id: 'web-client', scope: 'orders:write', token_use: 'access' };
const bob = { sub: 'user-bob', client_id: 'web-client', scope: 'orders:write', token_use: 'access' };
// A Cognito client-credentials token: its `sub` is the app client id.
const machine = { sub: 'billing-client', client_id: 'billing-client', scope: 'orders:write', token_use: 'access' };

/** A route whose handler answers with who it ran for, and counts its runs per caller. */
function ordersRoute(store: IdempotencyStore, options: Partial<IdempotencyMiddlewareOptions> = {}) {
  const runs: string[] = [];
  const main = handler(
    async (body: { sku: string }, ctx) => {
      const who = ctx.auth?.subject || 'anonymous';
      runs.push(who);
      return { orderId: `order-${runs.length}`, for: who, sku: body.sku };
    },
    { middleware: [idempotencyMiddleware({ store, ...options })] },
  );
  return { main, runs };
}

for (const backend of backends) {
  describe(`idempotency keys belong to the caller, with the ${backend.name}`, function () {
    let store: IdempotencyStore;

    before(async function () {
      await backend.prepare(this);
    });
    beforeEach(async () => {
      store = await backend.idempotencyStore();
    });

    it("A's key sent by B with the same body performs B's request and never returns A's response", async () => {
      // Given Alice placed an order with key k-1
      const { main, runs } = ordersRoute(store);
      const first = await main(post({ sku: 'a' }, 'k-1', alice), lambdaContext());
      expect(first.statusCode).to.equal(201);
      // When Bob sends the very same request with Alice's key
      const forBob = await main(post({ sku: 'a' }, 'k-1', bob), lambdaContext());
      // Then Bob's own order is placed; Alice's response is not replayed to him
      expect(forBob.statusCode).to.equal(201);
      expect(forBob.headers?.['Idempotency-Replayed']).to.equal(undefined);
      expect(JSON.parse(forBob.body ?? '{}')).to.include({ for: 'user-bob' });
      expect(forBob.body).to.not.equal(first.body);
      expect(runs).to.deep.equal(['user-alice', 'user-bob']);
    });

    it("A's key sent by B with another body is B's new operation, not a 422 that tells B the key exists", async () => {
      const { main, runs } = ordersRoute(store);
      await main(post({ sku: 'a' }, 'k-2', alice), lambdaContext());
      const forBob = await main(post({ sku: 'other' }, 'k-2', bob), lambdaContext());
      expect(forBob.statusCode).to.equal(201);
      expect(JSON.parse(forBob.body ?? '{}')).to.include({ for: 'user-bob', sku: 'other' });
      expect(runs).to.deep.equal(['user-alice', 'user-bob']);
    });

    it('the same caller still replays, and still gets 422 for its own key with another body', async () => {
      const { main, runs } = ordersRoute(store);
      const first = await main(post({ sku: 'a' }, 'k-3', alice), lambdaContext());
      // Bob's use of the same key in between changes nothing for Alice
      await main(post({ sku: 'a' }, 'k-3', bob), lambdaContext());
      const replayed = await main(post({ sku: 'a' }, 'k-3', alice), lambdaContext());
      expect(replayed.headers?.['Idempotency-Replayed']).to.equal('true');
      expect(replayed.body).to.equal(first.body);
      const reused = await main(post({ sku: 'b' }, 'k-3', alice), lambdaContext());
      expect(reused.statusCode).to.equal(422);
      expect(runs).to.deep.equal(['user-alice', 'user-bob']);
    });

    it("a machine token is namespaced by its client id, apart from the client's users", async () => {
      const { main, runs } = ordersRoute(store);
      await main(post({ sku: 'a' }, 'k-4', machine), lambdaContext());
      // A user token issued through another client, and a user of the machine's own client id as `client_id`
      await main(post({ sku: 'a' }, 'k-4', { ...alice, client_id: 'billing-client' }), lambdaContext());
      // The machine again, with a token that carries only `client_id`: the same caller, so a replay
      const again = await main(post({ sku: 'a' }, 'k-4', { client_id: 'billing-client', scope: 'orders:write' }), lambdaContext());
      expect(again.headers?.['Idempotency-Replayed']).to.equal('true');
      expect(runs).to.deep.equal(['billing-client', 'user-alice']);
    });

    it('anonymous callers share one namespace per route, apart from every signed-in caller', async () => {
      const { main, runs } = ordersRoute(store);
      await main(post({ sku: 'a' }, 'k-5'), lambdaContext());
      const anonymousAgain = await main(post({ sku: 'a' }, 'k-5'), lambdaContext());
      expect(anonymousAgain.headers?.['Idempotency-Replayed']).to.equal('true');
      const signedIn = await main(post({ sku: 'a' }, 'k-5', alice), lambdaContext());
      expect(signedIn.headers?.['Idempotency-Replayed']).to.equal(undefined);
      expect(runs).to.deep.equal(['anonymous', 'user-alice']);
    });

    it("a key shaped like another namespace does not reach into it", async () => {
      // Given Alice's record for k-6
      const { main, runs } = ordersRoute(store);
      await main(post({ sku: 'a' }, 'k-6', alice), lambdaContext());
      // When an anonymous caller and a caller whose sub holds a '#' forge keys that spell Alice's record key
      const forged1 = await main(post({ sku: 'a' }, 'caller:user-alice#k-6'), lambdaContext());
      const forged2 = await main(post({ sku: 'a' }, 'k-6', { sub: 'user-alice#k', scope: 'orders:write' }), lambdaContext());
      // Then both run their own request
      expect(forged1.headers?.['Idempotency-Replayed']).to.equal(undefined);
      expect(forged2.headers?.['Idempotency-Replayed']).to.equal(undefined);
      expect(runs).to.deep.equal(['user-alice', 'anonymous', 'user-alice#k']);
    });

    it('a custom namespace decides who shares records, e.g. every user of a tenant', async () => {
      // Given a route whose records are shared per tenant (a claim of the token)
      const tenantOf = ({ event }: MiddlewareRequest<unknown>) => `tenant:${String(authFromEvent(event)?.claims['custom:tenant'] ?? 'none')}`;
      const { main, runs } = ordersRoute(store, { namespace: tenantOf });
      const first = await main(post({ sku: 'a' }, 'k-7', { ...alice, 'custom:tenant': 'acme' }), lambdaContext());
      // When a colleague of the same tenant retries it, and a user of another tenant uses the same key
      const colleague = await main(post({ sku: 'a' }, 'k-7', { ...bob, 'custom:tenant': 'acme' }), lambdaContext());
      const stranger = await main(post({ sku: 'a' }, 'k-7', { ...bob, 'custom:tenant': 'globex' }), lambdaContext());
      // Then the colleague gets the replay and the stranger runs their own request
      expect(colleague.headers?.['Idempotency-Replayed']).to.equal('true');
      expect(colleague.body).to.equal(first.body);
      expect(stranger.headers?.['Idempotency-Replayed']).to.equal(undefined);
      expect(runs).to.deep.equal(['user-alice', 'user-bob']);
      // and the record key holds the namespace between the route and the key
      expect((await store.get(namespacedIdempotencyKey('POST /orders', 'tenant:acme', 'k-7'), Date.now()))?.status).to.equal('completed');
    });
  });
}

describe('idempotency namespaces, store-independent behaviour', () => {
  it('the default namespace is the subject, else the client id, else anonymous', () => {
    const request = (claims?: Record<string, unknown>) => ({ event: post({}, 'k', claims) }) as unknown as MiddlewareRequest<unknown>;
    expect(callerIdempotencyNamespace(request(alice))).to.equal('caller:user-alice');
    expect(callerIdempotencyNamespace(request({ client_id: 'billing-client' }))).to.equal('caller:billing-client');
    expect(callerIdempotencyNamespace(request())).to.equal('anonymous');
  });

  it('inside a tenant the namespace starts with the tenant: one subject in two tenants gets two namespaces', () => {
    const request = (claims?: Record<string, unknown>) => ({ event: post({}, 'k', claims) }) as unknown as MiddlewareRequest<unknown>;
    expect(runWithTenant({ id: 'acme' }, () => callerIdempotencyNamespace(request(alice)))).to.equal('tenant:acme/caller:user-alice');
    expect(runWithTenant({ id: 'globex' }, () => callerIdempotencyNamespace(request(alice)))).to.equal('tenant:globex/caller:user-alice');
    expect(runWithTenant({ id: 'acme' }, () => callerIdempotencyNamespace(request()))).to.equal('tenant:acme/anonymous');
  });

  it('a namespace function that returns nothing fails the request closed: 500, handler not run', async () => {
    const { InMemoryIdempotencyStore } = await import('../../src/idempotency/in-memory-idempotency-store.js');
    const { main, runs } = ordersRoute(new InMemoryIdempotencyStore(), { namespace: () => '' });
    const response = await main(post({ sku: 'a' }, 'k-8', alice), lambdaContext());
    expect(response.statusCode).to.equal(500);
    expect(runs).to.deep.equal([]);
  });

  it('checks the namespace option when created', () => {
    expect(() => idempotencyMiddleware({ store: Promise.resolve({} as IdempotencyStore), namespace: 'acme' as unknown as () => string })).to.throw(IdempotencyConfigError, /namespace/);
  });
});
