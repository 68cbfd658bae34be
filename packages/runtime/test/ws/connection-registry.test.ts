import { expect } from 'chai';
import { CreateTableCommand, type DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { WS_REGISTRY_TABLE as T } from '@framework/core/names';
import { connectionRecord, createDynamoDBConnectionRegistry, InMemoryConnectionRegistry, setConnectionRegistry, wsClient, wsHandler, type ConnectionRegistry, type WsEvent } from '../../src/index.js';
import { dynamoDBLocal, dynamoDBLocalUnavailable } from '../support/dynamodb-local.js';

const clients: DynamoDBClient[] = [];
let tables = 0;

/** A table as infra creates it (core's `WS_REGISTRY_TABLE` layout). */
async function dynamoRegistry(context: Mocha.Context): Promise<ConnectionRegistry> {
  const reason = dynamoDBLocalUnavailable();
  if (reason) {
    // DynamoDB Local runs on Java.
    console.warn(`skipping DynamoDB Local tests: ${reason}`);
    context.skip();
  }
  context.timeout(90_000);
  const local = await dynamoDBLocal();
  const client = local.client();
  clients.push(client);
  const tableName = `ws-connections-${++tables}`;
  await client.send(
    new CreateTableCommand({
      TableName: tableName,
      AttributeDefinitions: [
        { AttributeName: T.partitionKey, AttributeType: 'S' },
        { AttributeName: T.sortKey, AttributeType: 'S' },
        { AttributeName: T.memberKey, AttributeType: 'S' },
      ],
      KeySchema: [
        { AttributeName: T.partitionKey, KeyType: 'HASH' },
        { AttributeName: T.sortKey, KeyType: 'RANGE' },
      ],
      GlobalSecondaryIndexes: [
        {
          IndexName: T.memberIndex,
          KeySchema: [
            { AttributeName: T.memberKey, KeyType: 'HASH' },
            { AttributeName: T.partitionKey, KeyType: 'RANGE' },
          ],
          Projection: { ProjectionType: 'ALL' },
        },
      ],
      BillingMode: 'PAY_PER_REQUEST',
    }),
  );
  return createDynamoDBConnectionRegistry({ tableName, client });
}

after(() => {
  for (const client of clients.splice(0)) client.destroy();
});

const backends: ReadonlyArray<{ name: string; make: (context: Mocha.Context) => Promise<ConnectionRegistry> }> = [
  { name: 'in memory', make: async () => new InMemoryConnectionRegistry() },
  { name: 'DynamoDB on DynamoDB Local', make: dynamoRegistry },
];

const now = Date.UTC(2026, 10, 23, 3, 0, 0);

for (const backend of backends) {
  describe(`connection registry (${backend.name})`, () => {
    let registry: ConnectionRegistry;
    beforeEach(async function () {
      registry = await backend.make(this);
    });

    it('finds connections by topic and by user, and forgets a removed connection with its subscriptions', async () => {
      await registry.register(connectionRecord('a', now, 'user-1'));
      await registry.register(connectionRecord('b', now, 'user-1'));
      await registry.register(connectionRecord('c', now, undefined));
      expect(await registry.subscribe('a', 'tasks', now)).to.equal(true);
      expect(await registry.subscribe('c', 'tasks', now)).to.equal(true);
      expect(await registry.subscribe('b', 'room:42', now)).to.equal(true);
      expect((await registry.connections({ topic: 'tasks' }, now)).sort()).to.deep.equal(['a', 'c']);
      expect((await registry.connections({ user: 'user-1' }, now)).sort()).to.deep.equal(['a', 'b']);
      await registry.unsubscribe('c', 'tasks');
      expect(await registry.connections({ topic: 'tasks' }, now)).to.deep.equal(['a']);
      await registry.remove('a');
      expect(await registry.connections({ topic: 'tasks' }, now)).to.deep.equal([]);
      expect(await registry.connections({ user: 'user-1' }, now)).to.deep.equal(['b']);
      await registry.remove('a'); // not an error
    });

    it('refuses to subscribe a connection it does not know, and leaves out connections older than 2 hours', async () => {
      expect(await registry.subscribe('ghost', 'tasks', now)).to.equal(false);
      await registry.register(connectionRecord('old', now, 'user-2'));
      await registry.subscribe('old', 'tasks', now);
      const later = now + 2 * 60 * 60 * 1000 + 1000;
      expect(await registry.connections({ topic: 'tasks' }, later)).to.deep.equal([]);
      expect(await registry.connections({ user: 'user-2' }, later)).to.deep.equal([]);
      expect(await registry.subscribe('old', 'other', later)).to.equal(false);
    });

    it('lists a topic of 300 connections in full', async function () {
      this.timeout(120_000);
      const ids = Array.from({ length: 300 }, (_, i) => `conn-${i}`);
      for (const id of ids) await registry.register(connectionRecord(id, now, undefined));
      await Promise.all(ids.map((id) => registry.subscribe(id, 'big', now)));
      expect((await registry.connections({ topic: 'big' }, now)).sort()).to.deep.equal([...ids].sort());
    });
  });
}

/** A `$connect` / `$disconnect` event as API Gateway sends it. */
function lifecycleEvent(eventType: 'CONNECT' | 'DISCONNECT', connectionId: string, authorizer?: Record<string, string>): WsEvent {
  return {
    isBase64Encoded: false,
    requestContext: { routeKey: eventType === 'CONNECT' ? '$connect' : '$disconnect', eventType, connectionId, connectedAt: Date.now(), requestId: 'r', apiId: 'a', stage: 'dev', domainName: 'd', ...(authorizer ? { authorizer } : {}) },
  } as unknown as WsEvent;
}

describe('wsHandler and service.ws keep the registry', () => {
  let registry: InMemoryConnectionRegistry;
  beforeEach(() => setConnectionRegistry((registry = new InMemoryConnectionRegistry())));
  afterEach(() => setConnectionRegistry(undefined));

  it('records a $connect with the caller before the function runs (which may subscribe it), forgets a refused one, and forgets the connection at $disconnect even when the handler throws', async () => {
    const connect = wsHandler(async (_m, ctx, service) => {
      if (ctx.query['deny']) return { statusCode: 403 };
      if (ctx.query['fail']) throw new Error('boom');
      await service.ws.subscribe(ctx.connectionId, 'lobby');
      return undefined;
    });
    await connect(lifecycleEvent('CONNECT', 'c1', { principalId: 'user-7', sub: 'user-7' }));
    await connect({ ...lifecycleEvent('CONNECT', 'c2'), queryStringParameters: { deny: '1' } } as WsEvent);
    await connect({ ...lifecycleEvent('CONNECT', 'c3'), queryStringParameters: { fail: '1' } } as WsEvent);
    expect(registry.get('c1')).to.deep.include({ connectionId: 'c1', subject: 'user-7', topics: ['lobby'] });
    expect(registry.get('c2')).to.equal(undefined);
    expect(registry.get('c3')).to.equal(undefined);
    await wsClient().subscribe('c1', 'tasks');
    expect(await wsClient().connections({ topic: 'tasks' })).to.deep.equal(['c1']);
    const disconnect = wsHandler(async () => {
      throw new Error('boom');
    });
    await disconnect(lifecycleEvent('DISCONNECT', 'c1'));
    expect(registry.get('c1')).to.equal(undefined);
    expect(await wsClient().connections({ user: 'user-7' })).to.deep.equal([]);
  });

  it('subscribe to a connection the registry does not know throws WsConnectionGone; bad topics and queries get FW_ERR_WS_BAD_ARGUMENT', async () => {
    await expectRejection(wsClient().subscribe('nobody', 'tasks'), 'FW_ERR_WS_GONE');
    await registry.register(connectionRecord('c1', Date.now(), undefined));
    await expectRejection(wsClient().subscribe('c1', ''), 'FW_ERR_WS_BAD_ARGUMENT');
    await expectRejection(wsClient().subscribe('c1', 'x'.repeat(257)), 'FW_ERR_WS_BAD_ARGUMENT');
    await expectRejection(wsClient().connections({} as never), 'FW_ERR_WS_BAD_ARGUMENT');
    await expectRejection(wsClient().connections({ user: 'u', topic: 't' } as never), 'FW_ERR_WS_BAD_ARGUMENT');
  });
});

describe('a connection registry that cannot be written (DynamoDB Local, a table that does not exist)', () => {
  afterEach(() => setConnectionRegistry(undefined));

  it('refuses $connect with 500 (no connection no publish could reach) and throws FW_ERR_WS_REGISTRY_FAILED from subscribe and connections', async function () {
    const reason = dynamoDBLocalUnavailable();
    if (reason) {
      // DynamoDB Local runs on Java.
      console.warn(`skipping DynamoDB Local tests: ${reason}`);
      this.skip();
    }
    this.timeout(90_000);
    const local = await dynamoDBLocal();
    const client = local.client();
    clients.push(client);
    setConnectionRegistry(await createDynamoDBConnectionRegistry({ tableName: 'no-such-table', client }));
    let ran = false;
    const connect = wsHandler(async () => void (ran = true));
    const answer = await connect(lifecycleEvent('CONNECT', 'c1'));
    expect(answer.statusCode).to.equal(500);
    expect(answer.body).to.not.contain('no-such-table');
    expect(ran).to.equal(false);
    await expectRejection(wsClient().subscribe('c1', 'tasks'), 'FW_ERR_WS_REGISTRY_FAILED');
    await expectRejection(wsClient().connections({ topic: 'tasks' }), 'FW_ERR_WS_REGISTRY_FAILED');
  });
});

async function expectRejection(promise: Promise<unknown>, code: string): Promise<void> {
  try {
    await promise;
  } catch (error) {
    expect((error as { code?: string }).code, (error as Error).message).to.equal(code);
    return;
  }
  expect.fail(`expected a rejection with ${code}`);
}
