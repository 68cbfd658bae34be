import * as fs from 'node:fs';
import * as path from 'node:path';
import { expect } from 'chai';
import WebSocket from 'ws';
import { DevServer } from '../../src/dev/dev-server.js';
import { eventually, json } from './helpers.js';
import { smallProject } from './small-project.js';

/**
 * The connection registry under `fw dev` (the dev server keeps it; functions reach it through their worker): topics,
 * publish, 410 Gone forgetting a connection, `$disconnect` forgetting it, and the fan-out of a large topic. The app
 * has no `$connect` file (the dev server records connections, as the framework's function does deployed) and a
 * `$disconnect` file (its `wsHandler` forgets the connection, as deployed).
 */
describe('fw dev WebSocket connection registry (service.ws.subscribe / publish / connections)', function () {
  this.timeout(180_000);
  let dir: string;
  let server: DevServer;
  let wsUrl: string;
  const open = new Set<WebSocket>();

  before(async () => {
    dir = smallProject({
      'src/ws/subscribe.ts': [
        `import { wsHandler } from '@framework/runtime';`,
        `export const main = wsHandler<{ topic: string }>(async (message, ctx, service) => {`,
        `  await service.ws.subscribe(ctx.connectionId, message.topic);`,
        `  await service.ws.send(ctx.connectionId, { subscribed: message.topic, connectionId: ctx.connectionId });`,
        `});`,
        '',
      ].join('\n'),
      // Holds a closing connection in the registry until the test lets it go (the file `release` exists).
      'src/ws/$disconnect.ts': [
        `import * as fs from 'node:fs';`,
        `import { wsHandler } from '@framework/runtime';`,
        `export const main = wsHandler(async (_message, ctx) => {`,
        `  if (!fs.existsSync('__DIR__/hold')) return;`,
        `  fs.writeFileSync('__DIR__/holding', ctx.connectionId);`,
        `  while (!fs.existsSync('__DIR__/release')) await new Promise((resolve) => setTimeout(resolve, 20));`,
        `});`,
        '',
      ].join('\n'),
      'src/routes/publish/post.ts': [
        `import { handler } from '@framework/runtime';`,
        `export const main = handler<{ topic: string; data: unknown }>(async (body, _ctx, service) => {`,
        `  const result = await service.ws.publish(body.topic, body.data);`,
        `  return { sent: result.sent, gone: result.gone, failed: result.failed.length, queued: result.queued };`,
        `});`,
        '',
      ].join('\n'),
      'src/routes/connections/get.ts': [
        `import { handler } from '@framework/runtime';`,
        `export const main = handler(async (_body, ctx, service) => ({ ids: await service.ws.connections({ topic: ctx.query['topic']! }) }));`,
        '',
      ].join('\n'),
    });
    const disconnectFile = path.join(dir, 'src/ws/$disconnect.ts');
    fs.writeFileSync(disconnectFile, fs.readFileSync(disconnectFile, 'utf8').replaceAll('__DIR__', dir));
    const log = { info: () => undefined, warn: () => undefined, error: () => undefined };
    server = await DevServer.start({ rootDir: dir, port: 0, log, print: () => undefined, activityLog: false, watch: false });
    await server.settled;
    wsUrl = `${server.url.replace(/^http/, 'ws')}/_ws`;
  });
  afterEach(() => {
    for (const socket of open) socket.terminate();
    open.clear();
  });
  after(async () => {
    await server?.stop();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  /** A connection subscribed to `topic`; resolves with it and its id once the subscription is acknowledged. */
  async function subscribed(topic: string): Promise<{ socket: WebSocket; id: string; messages: any[] }> {
    const socket = new WebSocket(wsUrl);
    open.add(socket);
    const messages: any[] = [];
    socket.on('message', (data: Buffer) => {
      const text = data.toString('utf8');
      try {
        messages.push(JSON.parse(text));
      } catch {
        messages.push(text);
      }
    });
    await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
    socket.send(JSON.stringify({ action: 'subscribe', topic }));
    const ack = await eventually(async () => messages.find((m) => m.subscribed === topic), 30_000, `the subscription to ${topic}`);
    messages.splice(messages.indexOf(ack), 1);
    return { socket, id: ack.connectionId as string, messages };
  }

  const publish = async (topic: string, data: unknown) => json(await fetch(`${server.url}/publish`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ topic, data }) }));
  const connections = async (topic: string): Promise<string[]> => ((await json(await fetch(`${server.url}/connections?topic=${encodeURIComponent(topic)}`))) as { ids: string[] }).ids.sort();

  it('publishes to every connection subscribed to the topic, and to no other', async () => {
    const a = await subscribed('tasks');
    const b = await subscribed('tasks');
    const other = await subscribed('billing');
    expect(await connections('tasks')).to.deep.equal([a.id, b.id].sort());
    const result = await publish('tasks', { type: 'task.created', id: 1 });
    expect([...result.sent].sort()).to.deep.equal([a.id, b.id].sort());
    expect(result).to.deep.include({ gone: [], failed: 0, queued: [] });
    for (const client of [a, b]) await eventually(async () => client.messages.find((m) => m.type === 'task.created'), 10_000, 'the published message');
    expect(other.messages).to.deep.equal([]);
  });

  it('reports a connection that vanished while still registered as gone (410) and removes it from the registry', async () => {
    const stays = await subscribed('vanish');
    const leaves = await subscribed('vanish');
    fs.writeFileSync(path.join(dir, 'hold'), '');
    try {
      leaves.socket.close();
      // `$disconnect` is running and holds: the connection is closed, yet still registered.
      await eventually(async () => (fs.existsSync(path.join(dir, 'holding')) ? true : undefined), 10_000, '$disconnect to start');
      expect(await connections('vanish')).to.include(leaves.id);
      const result = await publish('vanish', 'hello');
      expect(result.gone).to.deep.equal([leaves.id]);
      expect(result.sent).to.deep.equal([stays.id]);
      expect(await connections('vanish')).to.deep.equal([stays.id]);
    } finally {
      fs.writeFileSync(path.join(dir, 'release'), '');
      fs.rmSync(path.join(dir, 'hold'));
    }
  });

  it('forgets a connection when it closes ($disconnect)', async () => {
    const a = await subscribed('closing');
    const b = await subscribed('closing');
    a.socket.close();
    await eventually(async () => ((await connections('closing')).join() === b.id ? true : undefined), 10_000, 'the closed connection to leave the registry');
  });

  it('publishes to 100 connections: every one receives the message once', async function () {
    this.timeout(300_000);
    const clients = await Promise.all(Array.from({ length: 100 }, () => subscribed('crowd')));
    const result = await publish('crowd', { n: 100 });
    expect(result.sent).to.have.length(100);
    for (const client of clients) await eventually(async () => (client.messages.length ? true : undefined), 10_000, 'the message');
    expect(clients.map((c) => c.messages)).to.deep.equal(clients.map(() => [{ n: 100 }]));
  });

  it('hands a topic of more than 500 connections to the fan-out (batches of 200), which reaches each of them', async function () {
    this.timeout(600_000);
    const clients: Array<Awaited<ReturnType<typeof subscribed>>> = [];
    // In steps, so the machine is not flooded with 501 handshakes at once.
    for (let i = 0; i < 501; i += 50) clients.push(...(await Promise.all(Array.from({ length: Math.min(50, 501 - i) }, () => subscribed('stadium')))));
    const result = await publish('stadium', 'goal');
    expect(result.sent).to.deep.equal([]);
    expect([...result.queued].sort()).to.deep.equal(clients.map((c) => c.id).sort());
    for (const client of clients) await eventually(async () => (client.messages.length ? true : undefined), 30_000, 'the fanned-out message');
    expect(clients.every((c) => c.messages.length === 1 && c.messages[0] === 'goal')).to.equal(true);
  });
});
