import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import type { SQSEvent } from 'aws-lambda';
import { ENV } from '@framework/core/names';
import { connectionRecord, InMemoryConnectionRegistry, resetWsClient, setConnectionRegistry, wsClient, wsRegistryMain, type WsEvent } from '../../src/index.js';

/**
 * The framework's WebSocket function and `publish` against a stand-in for API Gateway's `@connections` API (the one
 * AWS part): `gone-*` connections answer 410, the others 200.
 */
describe('wsRegistryMain (the framework\'s fw-ws-registry function) and publish', () => {
  let server: Server;
  const received: Array<{ id: string; body: string }> = [];
  let registry: InMemoryConnectionRegistry;
  const saved: Record<string, string | undefined> = {};

  before(async () => {
    server = createServer((request, response) => {
      const id = decodeURIComponent((request.url ?? '').split('/@connections/')[1] ?? '');
      const chunks: Buffer[] = [];
      request.on('data', (c: Buffer) => chunks.push(c));
      request.on('end', () => {
        if (id.startsWith('gone-')) {
          response.writeHead(410, { 'x-amzn-errortype': 'GoneException', 'content-type': 'application/json' }).end('{"message":"gone"}');
          return;
        }
        received.push({ id, body: Buffer.concat(chunks).toString('utf8') });
        response.writeHead(200).end();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    for (const name of [ENV.wsManagementUrl, 'AWS_ACCESS_KEY_ID', 'AWS_SECRET_ACCESS_KEY', 'AWS_REGION']) saved[name] = process.env[name];
    Object.assign(process.env, { [ENV.wsManagementUrl]: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, AWS_ACCESS_KEY_ID: 'test', AWS_SECRET_ACCESS_KEY: 'test', AWS_REGION: 'eu-west-1' });
    resetWsClient();
  });
  beforeEach(() => {
    received.length = 0;
    setConnectionRegistry((registry = new InMemoryConnectionRegistry()));
  });
  after(async () => {
    setConnectionRegistry(undefined);
    for (const [name, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
    resetWsClient();
    await new Promise((resolve) => server.close(resolve));
  });

  const lifecycle = (eventType: 'CONNECT' | 'DISCONNECT', connectionId: string, authorizer?: Record<string, string>) =>
    ({ isBase64Encoded: false, requestContext: { routeKey: eventType === 'CONNECT' ? '$connect' : '$disconnect', eventType, connectionId, connectedAt: Date.now(), requestId: 'r', ...(authorizer ? { authorizer } : {}) } }) as unknown as WsEvent;

  it('records a connection at $connect (with the caller) and forgets it at $disconnect, for an app without those files', async () => {
    expect(await wsRegistryMain(lifecycle('CONNECT', 'c1', { principalId: 'user-3', sub: 'user-3' }))).to.deep.equal({ statusCode: 200 });
    expect(registry.get('c1')).to.deep.include({ subject: 'user-3' });
    expect(await wsRegistryMain(lifecycle('DISCONNECT', 'c1'))).to.deep.equal({ statusCode: 200 });
    expect(registry.get('c1')).to.equal(undefined);
  });

  it('sends each fan-out batch of the queue and forgets the connections that answer 410', async () => {
    for (const id of ['ok-1', 'ok-2', 'gone-1']) await registry.register(connectionRecord(id, Date.now(), undefined));
    const event = { Records: [{ messageId: 'm1', body: JSON.stringify({ connectionIds: ['ok-1', 'ok-2', 'gone-1'], data: Buffer.from('{"n":1}').toString('base64') }) }] } as unknown as SQSEvent;
    expect(await wsRegistryMain(event)).to.deep.equal({ batchItemFailures: [] });
    expect(received.map((r) => r.id).sort()).to.deep.equal(['ok-1', 'ok-2']);
    expect(received.every((r) => r.body === '{"n":1}')).to.equal(true);
    expect(registry.get('gone-1')).to.equal(undefined);
    expect(registry.get('ok-1')).to.not.equal(undefined);
  });

  it('publish sends to the subscribed connections, reports a 410 in gone (not thrown) and removes it from the registry', async () => {
    for (const id of ['ok-1', 'gone-2', 'other']) await registry.register(connectionRecord(id, Date.now(), undefined));
    await wsClient().subscribe('ok-1', 'tasks');
    await wsClient().subscribe('gone-2', 'tasks');
    await wsClient().subscribe('other', 'billing');
    const result = await wsClient().publish('tasks', { type: 'task.created' });
    expect(result).to.deep.equal({ sent: ['ok-1'], gone: ['gone-2'], failed: [], queued: [] });
    expect(received).to.deep.equal([{ id: 'ok-1', body: '{"type":"task.created"}' }]);
    expect(await wsClient().connections({ topic: 'tasks' })).to.deep.equal(['ok-1']);
    // send: the 410 is thrown, and the connection forgotten too
    await registry.register(connectionRecord('gone-3', Date.now(), undefined));
    await wsClient().send('gone-3', 'x').then(() => expect.fail('expected WsConnectionGone'), (error: { code?: string }) => expect(error.code).to.equal('FW_ERR_WS_GONE'));
    expect(registry.get('gone-3')).to.equal(undefined);
  });
});
