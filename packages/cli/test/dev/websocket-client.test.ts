import * as fs from 'node:fs';
import * as net from 'node:net';
import { expect } from 'chai';
import WebSocket from 'ws';
import { connectWebSocket, WebSocketClientError, type ConnectWebSocketOptions, type WebSocketClient, type WebSocketStatus } from '@framework/runtime/client';
import { DevServer } from '../../src/dev/dev-server.js';
import { eventually, json, token } from './helpers.js';
import { smallProject } from './small-project.js';

interface Echo {
  route: string;
  connectionId: string;
  sub?: string;
  text?: string;
  n?: number;
}
type Actions = { chat: { text: string }; echo: { n: number }; raw: Record<string, never> };

/** `@framework/runtime/client`'s WebSocket client, in Node with the `ws` package as its WebSocket, against `fw dev`. */
describe('the WebSocket client (@framework/runtime/client) against fw dev', function () {
  this.timeout(120_000);
  let dir: string;
  let server: DevServer;
  let wsUrl: string;
  const clients: Array<WebSocketClient<Actions>> = [];

  before(async () => {
    dir = smallProject({
      'src/ws/$connect.ts': [`import { wsHandler } from '@framework/runtime';`, `export const main = wsHandler(async () => undefined, { scopes: ['items:read'] });`, ''].join('\n'),
      'src/ws/$default.ts': [
        `import { wsHandler } from '@framework/runtime';`,
        `export const main = wsHandler<{ n?: number }>(async (message, ctx, service) => { await service.ws.send(ctx.connectionId, { route: ctx.routeKey, connectionId: ctx.connectionId, sub: ctx.auth?.subject, n: message?.n }); });`,
        '',
      ].join('\n'),
      'src/ws/chat.ts': [
        `import { wsHandler } from '@framework/runtime';`,
        `export const main = wsHandler<{ text: string }>(async (message, ctx, service) => { await service.ws.send(ctx.connectionId, { route: ctx.routeKey, connectionId: ctx.connectionId, sub: ctx.auth?.subject, text: message.text }); });`,
        '',
      ].join('\n'),
      'src/ws/raw.ts': [
        `import { wsHandler } from '@framework/runtime';`,
        `export const main = wsHandler(async (_message, ctx, service) => { await service.ws.send(ctx.connectionId, 'not json'); await service.ws.send(ctx.connectionId, Buffer.from([0xff, 0x00, 0x80])); });`,
        '',
      ].join('\n'),
    });
    server = await DevServer.start({ rootDir: dir, port: 0, log: { info: () => undefined, warn: () => undefined, error: () => undefined }, print: () => undefined, activityLog: false, watch: false });
    await server.settled;
    wsUrl = `${server.url.replace(/^http/, 'ws')}/_ws`;
  });
  afterEach(() => {
    for (const client of clients) client.close();
    clients.length = 0;
  });
  after(async () => {
    await server?.stop();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  /** A client with short reconnect delays; `messages` collects what it receives, `statuses` and `errors` the rest. */
  function open(options: Partial<ConnectWebSocketOptions<Echo>> = {}) {
    const messages: Echo[] = [];
    const statuses: WebSocketStatus[] = [];
    const errors: WebSocketClientError[] = [];
    const client = connectWebSocket<Echo, Actions>({
      url: wsUrl,
      WebSocket,
      onMessage: (message) => messages.push(message),
      onStatus: (status) => statuses.push(status),
      onError: (error) => errors.push(error),
      ...options,
      reconnect: { minDelayMs: 20, maxDelayMs: 100, ...options.reconnect },
    });
    clients.push(client);
    return { client, messages, statuses, errors };
  }

  const nth = (messages: Echo[], count: number) => eventually(async () => (messages.length >= count ? messages.slice(0, count) : undefined), 20_000, `${count} messages`);

  it('connects with the token function\'s token in the token query parameter, sends JSON routed by action, and decodes the answers', async () => {
    const { client, messages, statuses } = open({ token: () => token(server.url, ['items:read'], 'user-a') });
    expect(client.status).to.equal('connecting');
    expect(client.send('chat', { text: 'hello' })).to.equal('buffered');
    await client.opened();
    expect(client.send('echo', { n: 7 })).to.equal('sent');
    expect(client.sendMessage({ n: 8 })).to.equal('sent');
    // Each message runs its own invocation (as deployed, where API Gateway does not order the replies of concurrent
    // invocations either), so the answers are matched by content, not by arrival order.
    const answers = await nth(messages, 3);
    const chat = answers.find((m) => m.route === 'chat');
    const echo = answers.find((m) => m.n === 7);
    const plain = answers.find((m) => m.n === 8);
    expect(chat).to.include({ route: 'chat', text: 'hello', sub: 'user-a' });
    // `echo` has no route file: $default takes it, as API Gateway does.
    expect(echo).to.include({ route: '$default', n: 7, sub: 'user-a' });
    expect(plain).to.include({ route: '$default', n: 8 });
    expect(statuses).to.deep.equal(['open']);
  });

  it('passes text that is not JSON as the text and a binary message as an ArrayBuffer', async () => {
    const { client, messages } = open({ token: () => token(server.url, ['items:read']) });
    client.send('raw', {});
    const [text, bytes] = (await nth(messages, 2)) as unknown[];
    expect(text).to.equal('not json');
    expect(bytes).to.be.instanceOf(ArrayBuffer);
    expect([...new Uint8Array(bytes as ArrayBuffer)]).to.deep.equal([0xff, 0x00, 0x80]);
  });

  it('reconnects after the dev server drops the connection, with a fresh token, and then delivers what was sent while disconnected', async () => {
    let calls = 0;
    let gate: Promise<void> | undefined;
    let release = () => undefined as void;
    const { client, messages, statuses } = open({
      token: async () => {
        calls += 1;
        const sub = `user-${calls}`;
        await gate;
        return token(server.url, ['items:read'], sub);
      },
    });
    await client.opened();
    client.send('echo', { n: 0 });
    const [first] = await nth(messages, 1);
    expect(first).to.include({ sub: 'user-1' });
    // The next attempt waits in the token function until released: the client is disconnected meanwhile.
    gate = new Promise<void>((resolve) => (release = resolve));
    const dropped = await fetch(`${server.url}/_dev/ws/@connections/${encodeURIComponent(first!.connectionId)}`, { method: 'DELETE' });
    expect(dropped.status).to.equal(204);
    await eventually(async () => (calls === 2 && client.status === 'reconnecting' ? true : undefined), 20_000, 'the reconnect attempt waiting for its token');
    expect([1, 2, 3].map((n) => client.send('echo', { n }))).to.deep.equal(['buffered', 'buffered', 'buffered']);
    release();
    const all = await nth(messages, 4);
    // The three buffered messages run as concurrent invocations whose replies may arrive in any order.
    expect(all.slice(1).map((m) => m.n).sort()).to.deep.equal([1, 2, 3]);
    for (const message of all.slice(1)) expect(message).to.include({ sub: 'user-2' }).and.not.include({ connectionId: first!.connectionId });
    expect(calls).to.equal(2);
    expect(statuses).to.deep.equal(['open', 'reconnecting', 'open']);
  });

  it('stops with FW_ERR_WS_CLIENT_REFUSED (401) when the token has expired, instead of reconnecting in a loop', async () => {
    const response = await fetch(`${server.url}/_dev/token`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ scopes: ['items:read'], sub: 'user-x', expiresIn: 1 }) });
    const { access_token: expired } = await json(response);
    const exp = JSON.parse(Buffer.from(expired.split('.')[1], 'base64url').toString('utf8')).exp as number;
    // The token the function hands out has expired (its exp, in whole seconds, is past) before the client asks for it.
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, exp * 1000 + 1100 - Date.now())));
    let calls = 0;
    const { client, errors, statuses } = open({
      token: () => {
        calls += 1;
        return expired as string;
      },
    });
    const failure = await client.opened().then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(failure).to.be.instanceOf(WebSocketClientError);
    expect(failure).to.include({ code: 'FW_ERR_WS_CLIENT_REFUSED', status: 401 });
    expect(errors).to.have.length(1);
    expect(errors[0]).to.equal(failure);
    expect(errors[0]!.message).to.contain('refused the connection with 401').and.contain('reconnect()');
    expect(client.status).to.equal('closed');
    expect(statuses.at(-1)).to.equal('closed');
    // Longer than the longest reconnect delay: a client that kept trying would have asked for another token.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(calls).to.equal(1);
    expect(() => client.send('echo', { n: 1 })).to.throw(WebSocketClientError).with.property('code', 'FW_ERR_WS_CLIENT_CLOSED');
  });

  it('stops with FW_ERR_WS_CLIENT_REFUSED (403) for a token without the scope $connect requires, and starts again on reconnect()', async () => {
    let scopes: string[] = [];
    const { client, messages, errors } = open({ token: () => token(server.url, scopes, 'user-b') });
    await eventually(async () => (errors.length ? true : undefined), 20_000, 'the refusal');
    expect(errors[0]).to.include({ code: 'FW_ERR_WS_CLIENT_REFUSED', status: 403 });
    scopes = ['items:read'];
    client.reconnect();
    await client.opened();
    client.send('chat', { text: 'back' });
    expect((await nth(messages, 1))[0]).to.include({ text: 'back', sub: 'user-b' });
  });

  it('stops with FW_ERR_WS_CLIENT_UNREACHABLE after maxFailedAttempts attempts in a row when nothing listens', async () => {
    const port = await freePort();
    const { client, errors } = open({ url: `ws://127.0.0.1:${port}/_ws`, reconnect: { maxFailedAttempts: 3 } });
    const failure = await client.opened().then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(failure).to.include({ code: 'FW_ERR_WS_CLIENT_UNREACHABLE' });
    expect((failure as Error).message).to.contain('after 3 attempts in a row').and.contain('ECONNREFUSED');
    expect(errors).to.deep.equal([failure]);
  });

  it('refuses in send, with a code, a message over the 32 KB frame limit and one past a full buffer; rejects a URL that is not ws(s)://', async () => {
    let release = () => undefined as void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const { client, messages } = open({
      maxBufferedMessages: 2,
      token: async () => {
        await gate;
        return token(server.url, ['items:read']);
      },
    });
    expect(() => client.send('chat', { text: 'x'.repeat(33 * 1024) })).to.throw(WebSocketClientError).with.property('code', 'FW_ERR_WS_CLIENT_TOO_LARGE');
    // Multi-byte text is measured in UTF-8 bytes: 11,000 three-byte characters are 33,000 bytes.
    expect(() => client.send('chat', { text: '€'.repeat(11_000) })).to.throw(WebSocketClientError).with.property('code', 'FW_ERR_WS_CLIENT_TOO_LARGE');
    client.send('echo', { n: 1 });
    client.send('echo', { n: 2 });
    expect(() => client.send('echo', { n: 3 })).to.throw(WebSocketClientError).with.property('code', 'FW_ERR_WS_CLIENT_BUFFER_FULL');
    release();
    expect((await nth(messages, 2)).map((m) => m.n)).to.deep.equal([1, 2]);
    expect(client.send('chat', { text: 'y'.repeat(30 * 1024) })).to.equal('sent');
    expect((await nth(messages, 3))[2]!.text).to.have.length(30 * 1024);
    expect(() => connectWebSocket({ url: server.url })).to.throw(TypeError, /must start with ws:\/\/ or wss:\/\//);
  });
});

/** A port nothing listens on: one the system handed out, closed again. */
async function freePort(): Promise<number> {
  const probe = net.createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as net.AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}
