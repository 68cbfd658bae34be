import * as fs from 'node:fs';
import * as path from 'node:path';
import { expect } from 'chai';
import WebSocket from 'ws';
import { ApiGatewayManagementApiClient, DeleteConnectionCommand, GetConnectionCommand, GoneException, PostToConnectionCommand } from '@aws-sdk/client-apigatewaymanagementapi';
import type { WsDefinition } from '@framework/core';
import { DevServer } from '../../src/dev/dev-server.js';
import { selectRoute } from '../../src/dev/ws/local-websocket-api.js';
import { eventually, json, token } from './helpers.js';
import { smallProject } from './small-project.js';

/** Runs `src/ws/` handlers of a small app under `fw dev` and talks to them with the `ws` package as the client. */
describe('fw dev WebSocket API (src/ws/, ws://<host>:<port>/_ws)', function () {
  this.timeout(120_000);
  let dir: string;
  let server: DevServer;
  let wsUrl: string;
  let readToken: string;
  const logged: string[] = [];
  let printed = '';
  const open = new Set<WebSocket>();

  /** Where `$disconnect` writes the ids of the connections it saw close. */
  const disconnects = () => {
    try {
      return fs.readFileSync(path.join(dir, 'disconnects.log'), 'utf8');
    } catch {
      return '';
    }
  };

  before(async () => {
    dir = smallProject({
      'src/ws/$connect.ts': [
        `import { wsHandler } from '@framework/runtime';`,
        `export const main = wsHandler(async () => undefined, { scopes: ['items:read'] });`,
        '',
      ].join('\n'),
      'src/ws/$disconnect.ts': [
        `import * as fs from 'node:fs';`,
        `import { wsHandler } from '@framework/runtime';`,
        `export const main = wsHandler(async (_message, ctx) => { fs.appendFileSync(${JSON.stringify('__DIR__/disconnects.log')}, ctx.connectionId + ' ' + ctx.rawEvent.requestContext.eventType + '\\n'); });`,
        '',
      ].join('\n'),
      'src/ws/$default.ts': [
        `import { wsHandler } from '@framework/runtime';`,
        `export const main = wsHandler(async (message, ctx, service) => { await service.ws.send(ctx.connectionId, { route: ctx.routeKey, echo: message, connectionId: ctx.connectionId, sub: ctx.auth?.subject }); });`,
        '',
      ].join('\n'),
      'src/ws/chat.ts': [
        `import { wsHandler } from '@framework/runtime';`,
        `export const main = wsHandler<{ text: string }>(async (message, ctx, service) => { await service.ws.send(ctx.connectionId, { route: ctx.routeKey, text: message.text, sub: ctx.auth?.subject }); });`,
        '',
      ].join('\n'),
      'src/routes/notify/post.ts': [
        `import { Gone, handler, WsConnectionGone } from '@framework/runtime';`,
        `export const main = handler<{ connectionId: string; text: string }>(async (body, _ctx, service) => {`,
        `  try { await service.ws.send(body.connectionId, body.text); return { sent: true }; }`,
        `  catch (error) { if (error instanceof WsConnectionGone) throw new Gone('gone: ' + error.connectionId); throw error; }`,
        `});`,
        '',
      ].join('\n'),
      'src/routes/broadcast/post.ts': [
        `import { handler } from '@framework/runtime';`,
        `export const main = handler<{ connectionIds: string[]; text: string }>(async (body, _ctx, service) => service.ws.broadcast(body.connectionIds, body.text));`,
        '',
      ].join('\n'),
    });
    // The handler above names the project folder, known only now.
    const disconnectFile = path.join(dir, 'src/ws/$disconnect.ts');
    fs.writeFileSync(disconnectFile, fs.readFileSync(disconnectFile, 'utf8').replace('__DIR__', dir));
    const log = { info: (m: string) => logged.push(m), warn: (m: string) => logged.push(m), error: (m: string) => logged.push(m) };
    server = await DevServer.start({ rootDir: dir, port: 0, log, print: (text) => void (printed += text), activityLog: false, watch: false });
    await server.settled;
    wsUrl = `${server.url.replace(/^http/, 'ws')}/_ws`;
    readToken = await token(server.url, ['items:read']);
  });
  afterEach(() => {
    for (const socket of open) socket.terminate();
    open.clear();
  });
  after(async () => {
    await server?.stop();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  /** Opens a connection; resolves when it is open, rejects with the HTTP status when the upgrade is refused. */
  function connect(url: string, headers: Record<string, string> = {}): Promise<WebSocket> {
    return new Promise((resolve, reject) => {
      const socket = new WebSocket(url, { headers });
      open.add(socket);
      socket.once('open', () => resolve(socket));
      socket.once('unexpected-response', (_request, response) => reject(Object.assign(new Error(`upgrade answered ${response.statusCode}`), { statusCode: response.statusCode })));
      socket.once('error', reject);
    });
  }

  /** The next message of a connection, parsed as JSON. */
  function nextMessage(socket: WebSocket): Promise<any> {
    return new Promise((resolve, reject) => {
      socket.once('message', (data: Buffer) => resolve(JSON.parse(data.toString('utf8'))));
      socket.once('close', (code) => reject(new Error(`closed with ${code} before a message`)));
    });
  }

  function closed(socket: WebSocket): Promise<number> {
    return new Promise((resolve) => socket.once('close', (code: number) => resolve(code)));
  }

  it('prints the ws:// URL, the route keys and the selection expression in the start-up table', () => {
    expect(printed).to.contain(`${wsUrl} (routes $connect, $disconnect, $default, chat; selection $request.body.action; @connections at ${server.url}/_dev/ws)`);
  });

  it('refuses the upgrade with 401 when $connect has scopes and the request carries no token, or one that does not verify', async () => {
    const without = await connect(wsUrl).then(() => 0, (error: { statusCode?: number }) => error.statusCode);
    expect(without).to.equal(401);
    const forged = await connect(`${wsUrl}?token=${readToken.slice(0, -4)}AAAA`).then(() => 0, (error: { statusCode?: number }) => error.statusCode);
    expect(forged).to.equal(401);
    const lacking = await connect(`${wsUrl}?token=${await token(server.url, [])}`).then(() => 0, (error: { statusCode?: number }) => error.statusCode);
    expect(lacking).to.equal(403);
  });

  it('opens with a valid token in the token query parameter or the Authorization header, and gives ctx.auth (the claims of $connect) on every message', async () => {
    const byQuery = await connect(`${wsUrl}?token=${readToken}`);
    const reply = nextMessage(byQuery);
    byQuery.send(JSON.stringify({ action: 'chat', text: 'hello' }));
    expect(await reply).to.deep.equal({ route: 'chat', text: 'hello', sub: 'user-1' });
    const byHeader = await connect(wsUrl, { authorization: `Bearer ${readToken}` });
    const echoed = nextMessage(byHeader);
    byHeader.send(JSON.stringify({ text: 'no action' }));
    expect(await echoed).to.include({ route: '$default', sub: 'user-1' });
  });

  it('selects the route by the action field: a known action goes to its file, anything else (no action, unknown action, not JSON) to $default', async () => {
    const socket = await connect(`${wsUrl}?token=${readToken}`);
    for (const [sent, route] of [
      [JSON.stringify({ action: 'chat', text: 't' }), 'chat'],
      [JSON.stringify({ action: 'nope', n: 1 }), '$default'],
      [JSON.stringify({ action: '$connect' }), '$default'],
      ['plain text', '$default'],
    ] as const) {
      const reply = nextMessage(socket);
      socket.send(sent);
      expect((await reply).route, sent).to.equal(route);
    }
    const reply = nextMessage(socket);
    socket.send('plain text');
    expect((await reply).echo).to.equal('plain text');
  });

  it('delivers service.ws.send from an HTTP route to the connected client', async () => {
    const socket = await connect(`${wsUrl}?token=${readToken}`);
    const first = nextMessage(socket);
    socket.send('{}');
    const { connectionId } = await first;
    const delivered = new Promise<string>((resolve) => socket.once('message', (data: Buffer) => resolve(data.toString('utf8'))));
    const response = await fetch(`${server.url}/notify`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ connectionId, text: 'from a route' }) });
    expect(response.status).to.equal(201);
    expect(await json(response)).to.deep.equal({ sent: true });
    expect(await delivered).to.equal('from a route');
    const described = await fetch(`${server.url}/_dev/ws/@connections/${encodeURIComponent(connectionId)}`);
    expect(described.status).to.equal(200);
    expect(await json(described)).to.have.keys('connectedAt', 'identity', 'lastActiveAt');
  });

  it('serves the @connections API to the AWS SDK\'s own client (post, get, delete; 410 GoneException after), as API Gateway does', async () => {
    const socket = await connect(`${wsUrl}?token=${readToken}`);
    const first = nextMessage(socket);
    socket.send('{}');
    const { connectionId } = await first;
    const client = new ApiGatewayManagementApiClient({ endpoint: `${server.url}/_dev/ws`, region: 'eu-west-1', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
    try {
      const delivered = new Promise<string>((resolve) => socket.once('message', (data: Buffer) => resolve(data.toString('utf8'))));
      await client.send(new PostToConnectionCommand({ ConnectionId: connectionId, Data: Buffer.from('from the SDK') }));
      expect(await delivered).to.equal('from the SDK');
      const described = await client.send(new GetConnectionCommand({ ConnectionId: connectionId }));
      expect(described.ConnectedAt).to.be.instanceOf(Date);
      expect(described.Identity?.SourceIp).to.equal('127.0.0.1');
      const code = closed(socket);
      await client.send(new DeleteConnectionCommand({ ConnectionId: connectionId }));
      expect(await code).to.equal(1000);
      const late = await client.send(new PostToConnectionCommand({ ConnectionId: connectionId, Data: Buffer.from('late') })).then(() => undefined, (error: unknown) => error);
      expect(late).to.be.instanceOf(GoneException);
    } finally {
      client.destroy();
    }
  });

  it('broadcasts one message from an HTTP route to 100 connections, each receiving it once', async () => {
    const sockets = await Promise.all(Array.from({ length: 100 }, () => connect(`${wsUrl}?token=${readToken}`)));
    const ids = await Promise.all(
      sockets.map(async (socket) => {
        const reply = nextMessage(socket);
        socket.send('{}');
        return (await reply).connectionId as string;
      }),
    );
    expect(new Set(ids).size).to.equal(100);
    const received = sockets.map(() => [] as string[]);
    sockets.forEach((socket, i) => socket.on('message', (data: Buffer) => received[i]!.push(data.toString('utf8'))));
    const response = await fetch(`${server.url}/broadcast`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ connectionIds: [...ids, ids[0]], text: 'to the hundred' }) });
    expect(response.status).to.equal(201);
    const result = await json(response);
    expect([...result.sent].sort()).to.deep.equal([...ids].sort());
    expect(result).to.deep.include({ gone: [], failed: [] });
    await eventually(async () => (received.every((r) => r.length >= 1) ? true : undefined), 20_000, 'the broadcast at every connection');
    expect(received.every((r) => r.length === 1 && r[0] === 'to the hundred')).to.equal(true);
  });

  it('runs $disconnect when a client closes, then reports the vanished connection as 410 Gone: thrown by send, listed by broadcast', async () => {
    const staying = await connect(`${wsUrl}?token=${readToken}`);
    const leaving = await connect(`${wsUrl}?token=${readToken}`);
    const ids: string[] = [];
    for (const socket of [staying, leaving]) {
      const reply = nextMessage(socket);
      socket.send('{}');
      ids.push((await reply).connectionId as string);
    }
    const [stayingId, leavingId] = ids as [string, string];
    leaving.close(1000);
    await eventually(async () => (disconnects().includes(`${leavingId} DISCONNECT`) ? true : undefined), 20_000, '$disconnect of the closed connection');
    const send = await fetch(`${server.url}/notify`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ connectionId: leavingId, text: 'late' }) });
    expect(send.status).to.equal(410);
    expect((await json(send)).error).to.include({ code: 'GONE', message: `gone: ${leavingId}` });
    const delivered = new Promise<string>((resolve) => staying.once('message', (data: Buffer) => resolve(data.toString('utf8'))));
    const broadcast = await fetch(`${server.url}/broadcast`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ connectionIds: [stayingId, leavingId], text: 'to all' }) });
    expect(broadcast.status).to.equal(201);
    expect(await json(broadcast)).to.deep.equal({ sent: [stayingId], gone: [leavingId], failed: [] });
    expect(await delivered).to.equal('to all');
  });

  it('closes with 1009 a message over 128 KB (sent as frames under 32 KB) and a single frame over 32 KB, without running a handler', async () => {
    const fragmented = await connect(`${wsUrl}?token=${readToken}`);
    const fragmentedClosed = closed(fragmented);
    const received: unknown[] = [];
    fragmented.on('message', (data) => received.push(data));
    const chunk = Buffer.alloc(30 * 1024, 'a');
    for (let i = 0; i < 5; i++) fragmented.send(chunk, { fin: i === 4, binary: false });
    expect(await fragmentedClosed).to.equal(1009);
    const oneFrame = await connect(`${wsUrl}?token=${readToken}`);
    const oneFrameClosed = closed(oneFrame);
    oneFrame.on('message', (data) => received.push(data));
    oneFrame.send(Buffer.alloc(40 * 1024, 'b'), { binary: false });
    expect(await oneFrameClosed).to.equal(1009);
    expect(received).to.deep.equal([]);
    expect(logged.join('\n')).to.contain('131072-byte message limit').and.to.contain('32768-byte frame limit');
    // Under both limits, a message of 100 KB in 4 frames is served.
    const within = await connect(`${wsUrl}?token=${readToken}`);
    const reply = nextMessage(within);
    const text = JSON.stringify({ action: 'chat', text: 'x'.repeat(100 * 1024) });
    const third = Math.ceil(text.length / 4);
    for (let i = 0; i < 4; i++) within.send(text.slice(i * third, (i + 1) * third), { fin: i === 3 });
    expect((await reply).text).to.have.length(100 * 1024);
  });
});

describe('route selection of fw dev\'s WebSocket API (selectRoute)', () => {
  const definition = (expression: string, keys: string[]) => ({ apiName: 'a-dev-ws', routeSelectionExpression: expression, routes: keys.map((routeKey) => ({ routeKey })) }) as unknown as WsDefinition;

  it('follows the configured expression into nested fields, and falls back to $default (or nothing without it)', () => {
    const nested = definition('$request.body.meta.type', ['$default', 'join']);
    expect(selectRoute(nested, Buffer.from('{"meta":{"type":"join"}}'), false)).to.equal('join');
    expect(selectRoute(nested, Buffer.from('{"action":"join"}'), false)).to.equal('$default');
    expect(selectRoute(nested, Buffer.from('{"meta":{"type":"join"}}'), true)).to.equal('$default');
    expect(selectRoute(definition('$request.body.action', ['join']), Buffer.from('{"action":"leave"}'), false)).to.equal(undefined);
    expect(selectRoute(definition('$request.body.action', ['join', '$default']), Buffer.from('{"action":"__proto__"}'), false)).to.equal('$default');
  });
});
