import * as fs from 'node:fs';
import { expect } from 'chai';
import WebSocket from 'ws';
import { copyExample, eventually, json, startDev, token, type RunningDev } from './helpers.js';

/**
 * The example's live task updates on `fw dev` (issue acceptance, browser-free): `src/ws/$connect.ts` subscribes each
 * connection to its user's tasks topic, `POST /tasks` publishes `{ type: 'task.created', task }` to it. Two clients of
 * one user receive a task a third client (plain HTTP) creates; another user's client does not. The delivery time is
 * printed, never asserted.
 */
describe('example: live task updates over the WebSocket API (fw dev)', function () {
  this.timeout(240_000);
  let dir: string;
  let dev: RunningDev;
  const open = new Set<WebSocket>();

  before(async () => {
    dir = copyExample();
    dev = await startDev(dir);
  });
  after(async () => {
    for (const socket of open) socket.terminate();
    await dev?.stop();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  /** A connection with a token of `sub`; collects its messages with the time each arrived. */
  async function client(sub: string): Promise<{ socket: WebSocket; messages: Array<{ at: number; data: any }> }> {
    const accessToken = await token(dev.url, ['tasks:read'], sub);
    const socket = new WebSocket(`${dev.url.replace(/^http/, 'ws')}/_ws?token=${accessToken}`);
    open.add(socket);
    const messages: Array<{ at: number; data: any }> = [];
    socket.on('message', (data: Buffer) => messages.push({ at: performance.now(), data: JSON.parse(data.toString('utf8')) }));
    await new Promise((resolve, reject) => {
      socket.once('open', resolve);
      socket.once('unexpected-response', (_request, response) => reject(new Error(`upgrade answered ${response.statusCode}`)));
      socket.once('error', reject);
    });
    return { socket, messages };
  }

  it('refuses a connection without a token (401): $connect requires tasks:read', async () => {
    const socket = new WebSocket(`${dev.url.replace(/^http/, 'ws')}/_ws`);
    const status = await new Promise<number>((resolve) => {
      socket.once('unexpected-response', (_request, response) => resolve(response.statusCode ?? 0));
      socket.once('open', () => resolve(101));
      socket.once('error', () => undefined);
    });
    socket.terminate();
    expect(status).to.equal(401);
  });

  it("delivers a task created by a third client to both of its user's subscribed connections, and to no other user's", async () => {
    const first = await client('live-user');
    const second = await client('live-user');
    const stranger = await client('someone-else');
    const writer = await token(dev.url, ['tasks:write'], 'live-user');
    const create = async (title: string) => {
      const sentAt = performance.now();
      const response = await fetch(`${dev.url}/tasks`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${writer}` }, body: JSON.stringify({ title }) });
      expect(response.status).to.equal(201);
      return { sentAt, task: await json(response) };
    };
    // The first request also starts the route's worker (cold); the second is what a running app sees.
    const timings: string[] = [];
    for (const [n, title] of ['Live update', 'Second live update'].entries()) {
      const { sentAt, task } = await create(title);
      for (const c of [first, second]) await eventually(async () => (c.messages.length > n ? true : undefined), 10_000, 'the task.created message');
      for (const c of [first, second]) expect(c.messages[n]!.data).to.deep.equal({ type: 'task.created', task });
      // The response of POST /tasks and the messages race: from the request to the last delivery.
      timings.push(`${(Math.max(first.messages[n]!.at, second.messages[n]!.at) - sentAt).toFixed(1)} ms ${n === 0 ? '(cold worker)' : '(warm)'}`);
    }
    console.log(`      POST /tasks → task.created on 2 connections, request sent to last delivery: ${timings.join(', ')}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(stranger.messages).to.deep.equal([]);
  });
});
