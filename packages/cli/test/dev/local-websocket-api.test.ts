import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import WebSocket from 'ws';
import type { WsDefinition } from '@framework/core';
import { LocalWebSocketApi, type WsLimits } from '../../src/dev/ws/local-websocket-api.js';
import { eventually } from './helpers.js';

/** A LocalWebSocketApi on a plain HTTP server of its own, with limits short enough to reach in a test. */
describe('fw dev WebSocket API: idle and connection limits, server-side close', () => {
  let server: http.Server;
  let api: LocalWebSocketApi;
  const events: Array<{ requestContext: { routeKey: string; connectionId: string; disconnectStatusCode?: number } }> = [];
  const logged: string[] = [];

  async function start(limits: Partial<WsLimits>): Promise<string> {
    const definition = { apiName: 'a-dev-ws', routeSelectionExpression: '$request.body.action', routes: [{ routeKey: '$connect' }, { routeKey: '$disconnect' }] } as unknown as WsDefinition;
    api = new LocalWebSocketApi({
      api: { domainName: 'localhost', stage: 'dev', apiId: 'local' },
      definition: () => definition,
      invoke: async (_unit, event) => {
        events.push(event as (typeof events)[number]);
        return { ok: true, value: { statusCode: 200 } };
      },
      authorize: async () => ({}),
      log: { info: (m) => logged.push(m), warn: (m) => logged.push(m), error: (m) => logged.push(m) },
      limits,
    });
    server = http.createServer();
    server.on('upgrade', (request, socket, head) => void api.upgrade(request, socket, head));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return `ws://127.0.0.1:${(server.address() as AddressInfo).port}/_ws`;
  }

  function openAndClose(url: string): Promise<{ socket: WebSocket; closed: Promise<number> }> {
    return new Promise((resolve, reject) => {
      const socket = new WebSocket(url);
      const closed = new Promise<number>((done) => socket.once('close', (code: number) => done(code)));
      socket.once('open', () => resolve({ socket, closed }));
      socket.once('error', reject);
    });
  }

  afterEach(async () => {
    await api?.stop();
    await new Promise((resolve) => server?.close(resolve));
    events.length = 0;
    logged.length = 0;
  });

  it('closes a connection idle for idleMs with 1001 and runs $disconnect with that code', async () => {
    const url = await start({ idleMs: 150 });
    const { closed } = await openAndClose(url);
    expect(await closed).to.equal(1001);
    const disconnect = await eventually(async () => events.find((e) => e.requestContext.routeKey === '$disconnect'), 5000, '$disconnect');
    expect(disconnect.requestContext.disconnectStatusCode).to.equal(1001);
    expect(logged.join('\n')).to.contain("API Gateway's idle timeout");
  });

  it('closes a connection older than connectionMs with 1001, even an active one', async () => {
    const url = await start({ connectionMs: 200 });
    const { socket, closed } = await openAndClose(url);
    const timer = setInterval(() => socket.readyState === socket.OPEN && socket.send('{}'), 20);
    try {
      expect(await closed).to.equal(1001);
    } finally {
      clearInterval(timer);
    }
    expect(logged.join('\n')).to.contain("API Gateway's longest connection");
  });

  it('closes a connection on DELETE @connections (1000, $disconnect runs), describes it before, and reports it gone after', async () => {
    const url = await start({});
    const { closed } = await openAndClose(url);
    const id = events.find((e) => e.requestContext.routeKey === '$connect')!.requestContext.connectionId;
    expect(api.describe(id)).to.have.keys('connectedAt', 'identity', 'lastActiveAt');
    expect(api.disconnect(id)).to.equal(true);
    expect(await closed).to.equal(1000);
    await eventually(async () => (api.describe(id) === undefined ? true : undefined), 5000, 'the connection forgotten');
    expect(events.find((e) => e.requestContext.routeKey === '$disconnect')?.requestContext.disconnectStatusCode).to.equal(1000);
    expect(api.send(id, Buffer.from('late'))).to.equal('gone');
    expect(api.disconnect(id)).to.equal(false);
  });
});
