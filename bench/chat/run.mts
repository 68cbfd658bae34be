/**
 * Chat (@framework-pro/chat) on the example app's `fw dev` against raw broadcasts, in the same run: one sender, a
 * 100-member room (100 connections, the sender's included), one message in flight (send, wait for the ack and every
 * delivery, send the next). Per side: messages per second (one message in flight) and p50/p99 delivery latency (from
 * the send to each member's receipt, every member of every message).
 *
 * - chat: `{ action: 'chat', op: 'send' }` on the example's src/ws/chat.ts (checks, the pre-send path, the room's
 *   sequence number under its lock, the insert, the watermark, then `service.ws.publish` to the room's topic).
 * - raw publish: a WebSocket route added to the bench's copy of the app that only `service.ws.publish`es the frame it
 *   is given to a topic: the WebSocket API's own broadcast on the same fw dev. Target: chat's p99 at most 2x this.
 * - plain ws: a plain `ws` server that loops over its clients (bench/ws/plain-echo.mjs), for scale.
 *
 * Like with like: the raw side publishes a frame of chat's shape and size (a `message.sent` frame chat pushed in the
 * warm-up, with this message's text), to the same 100 connections; both sides get the same warm-up; their messages
 * alternate (raw, chat, raw, chat...), so a slow moment of this shared machine falls on both alike.
 *
 * The bench's copy of the app allows 100,000 messages per member and minute (the example allows 120), so that one
 * sender can send enough messages for a stable p99: BENCH_CHAT_MESSAGES per side (default 1000, so 100,000
 * deliveries). A message's 100 deliveries land within a few ms of each other, so the p99 of the deliveries is about
 * the 10th slowest message of the side: with 300 messages it was the 3rd, and one slow moment of the shared machine
 * moved it (runs of the same code gave 0.86x to 2.48x).
 *
 * The database engine: BENCH_CHAT_DB=embedded (the default: PGlite, WebAssembly in fw dev's PGlite process, the
 * engine every machine has) or native (the `postgres` on PATH, which fw dev picks first when it is installed). The
 * bench stops when fw dev fell back from the engine asked for.
 *
 * Run: npx projen bench:chat
 */
import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import WebSocket from 'ws';

const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.resolve(here, '..', '..');
const cli = path.join(repo, 'packages', 'cli', 'lib', 'bin', 'fw.js');
const MEMBERS = 100;
const MESSAGES = Number(process.env.BENCH_CHAT_MESSAGES ?? 1000);
const WARM_UP = 20;
const ENGINE = process.env.BENCH_CHAT_DB ?? 'embedded';
if (ENGINE !== 'embedded' && ENGINE !== 'native') throw new Error(`BENCH_CHAT_DB is embedded (PGlite) or native (postgres on PATH); got ${ENGINE}`);
const ENGINE_LABEL = ENGINE === 'native' ? 'native PostgreSQL' : 'PGlite';

type Frame = Record<string, any>;

function percentile(values: number[], p: number): number {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!;
}

/** A copy of the example app, plus a raw-publish WebSocket route for the anchor, and a rate limit one sender cannot reach. */
function project(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fw-bench-chat-'));
  fs.cpSync(path.join(repo, 'examples', 'tasks-api'), dir, { recursive: true, filter: (src) => !/[\\/](node_modules|\.fw|test)$/.test(src) });
  fs.writeFileSync(
    path.join(dir, 'src', 'ws', 'raw.ts'),
    `import { wsHandler } from '@framework/runtime';
export const main = wsHandler<{ op: string; ref: string; data?: unknown }>(async (message, ctx, service) => {
  if (message.op === 'join') await service.ws.subscribe(ctx.connectionId, 'bench-raw');
  else await service.ws.publish('bench-raw', message.data);
  await service.ws.send(ctx.connectionId, { type: 'ack', ref: message.ref });
}, { scopes: ['tasks:read'] });
`,
  );
  const chatFile = path.join(dir, 'src', 'lib', 'chat.ts');
  const chatSource = fs.readFileSync(chatFile, 'utf8');
  if (!/messagesPerMinute: \d+/.test(chatSource)) throw new Error(`${chatFile} no longer sets messagesPerMinute: update the bench`);
  fs.writeFileSync(chatFile, chatSource.replace(/messagesPerMinute: \d+/, 'messagesPerMinute: 100_000'));
  fs.symlinkSync(path.join(repo, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
  // A native postgres started by root runs as the postgres user, which must reach the project's .fw folder.
  fs.chmodSync(dir, 0o755);
  return dir;
}

async function startDev(dir: string): Promise<{ child: ChildProcess; url: string }> {
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('FW_')));
  const child = spawn(process.execPath, [cli, 'dev', '--port', '0', '--no-typecheck', '--quiet', '--engine', `databases=${ENGINE}`], { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'], env });
  let output = '';
  const url = await new Promise<string>((resolve, reject) => {
    const check = (d: Buffer) => {
      output += d.toString();
      const m = /serving at (http:\/\/\S+)/.exec(output);
      if (/databases: .* failed to start/.test(output)) reject(new Error(`fw dev could not start the ${ENGINE_LABEL} engine the bench asked for:\n${output}`));
      if (m && output.includes('Dev endpoints:')) resolve(m[1]!);
    };
    child.stdout!.on('data', check);
    child.stderr!.on('data', check);
    child.once('exit', (code) => reject(new Error(`fw dev exited with ${code}:\n${output}`)));
  });
  child.stdout!.resume();
  child.stderr!.resume();
  return { child, url };
}

async function startPlain(): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, [path.join(repo, 'bench', 'ws', 'plain-echo.mjs')], { stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise<string>((resolve) => child.stdout!.on('data', (d: Buffer) => /ready (\d+)/.test(d.toString()) && resolve(/ready (\d+)/.exec(d.toString())![1]!)));
  return { child, url: `ws://127.0.0.1:${port}` };
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

/** A connection that routes acks by `ref` and hands every other frame to `onPush`. */
class Client {
  private readonly waiting = new Map<string, (frame: Frame) => void>();
  private next = 0;
  onPush: (frame: Frame, bytes: number) => void = () => undefined;
  private constructor(readonly socket: WebSocket) {
    socket.on('message', (data: Buffer) => {
      const frame = JSON.parse(data.toString('utf8')) as Frame;
      const waiter = frame['ref'] !== undefined ? this.waiting.get(String(frame['ref'])) : undefined;
      if (waiter && (frame['type'] === 'ack' || frame['type'] === 'error')) {
        this.waiting.delete(String(frame['ref']));
        waiter(frame);
      } else this.onPush(frame, data.length);
    });
  }
  static connect(url: string): Promise<Client> {
    return new Promise((resolve, reject) => {
      const socket = new WebSocket(url, { perMessageDeflate: false });
      socket.once('open', () => resolve(new Client(socket)));
      socket.once('error', reject);
    });
  }
  async call(frame: Frame): Promise<Frame> {
    const ref = String(++this.next);
    const answer = await new Promise<Frame>((resolve) => {
      this.waiting.set(ref, resolve);
      this.socket.send(JSON.stringify({ ...frame, ref }));
    });
    if (answer['type'] === 'error') throw new Error(`${answer['code']}: ${answer['message']}`);
    return answer;
  }
}

interface Side {
  readonly latencies: number[];
  /** Time with one of this side's messages in flight (from its send to its ack and last delivery). */
  busyMs: number;
  bytes: number;
}

/**
 * One message of a side: sends it (`send` resolves on the ack), and resolves once every client received the pushed
 * frame carrying `sentAt` (found by `sentAtOf`); each delivery's latency goes to the side.
 */
async function one(clients: Client[], side: Side, sentAtOf: (frame: Frame) => number | undefined, send: (sentAt: number) => Promise<void>): Promise<void> {
  let delivered = 0;
  let allDelivered!: () => void;
  const done = new Promise<void>((resolve) => (allDelivered = resolve));
  const sentAt = performance.now();
  for (const client of clients) {
    client.onPush = (frame, bytes) => {
      if (sentAtOf(frame) !== sentAt) return;
      side.latencies.push(performance.now() - sentAt);
      side.bytes = bytes;
      if (++delivered === clients.length) allDelivered();
    };
  }
  await send(sentAt);
  await done;
  side.busyMs += performance.now() - sentAt;
}

function summary(side: Side) {
  return { rate: side.latencies.length / MEMBERS / (side.busyMs / 1000), p50: percentile(side.latencies, 50), p99: percentile(side.latencies, 99), samples: side.latencies.length, bytes: side.bytes };
}

async function main(): Promise<void> {
  const dir = project();
  const dev = await startDev(dir);
  const plain = await startPlain();
  try {
    console.log(`fw dev (the example app, ${ENGINE_LABEL}) ${dev.url}, plain ws ${plain.url}; ${os.cpus().length} CPUs, load ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}`);
    const users = Array.from({ length: MEMBERS }, (_, i) => (i === 0 ? 'sender' : `member-${i}`));
    const token = async (sub: string) => {
      const response = await fetch(`${dev.url}/_dev/token`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ sub, scopes: ['tasks:read', 'tasks:write'], tenant: 'acme' }) });
      return ((await response.json()) as { access_token: string }).access_token;
    };
    const tokens = await Promise.all(users.map(token));
    const created = await fetch(`${dev.url}/chat/rooms`, { method: 'POST', headers: { authorization: `Bearer ${tokens[0]}`, 'content-type': 'application/json' }, body: JSON.stringify({ name: 'bench', members: users.slice(1) }) });
    const roomId = ((await created.json()) as { id: string }).id;
    const wsUrl = `${dev.url.replace(/^http/, 'ws')}/_ws`;
    const devClients: Client[] = [];
    for (let i = 0; i < MEMBERS; i += 20) devClients.push(...(await Promise.all(tokens.slice(i, i + 20).map((t) => Client.connect(`${wsUrl}?token=${encodeURIComponent(t)}`)))));
    for (const client of devClients) {
      await client.call({ action: 'chat', op: 'join', roomId });
      await client.call({ action: 'raw', op: 'join' });
    }
    const plainClients: Client[] = [];
    for (let i = 0; i < MEMBERS; i += 20) plainClients.push(...(await Promise.all(Array.from({ length: Math.min(20, MEMBERS - i) }, () => Client.connect(plain.url)))));
    const sender = devClients[0]!;
    const chatSide: Side = { latencies: [], busyMs: 0, bytes: 0 };
    const rawSide: Side = { latencies: [], busyMs: 0, bytes: 0 };
    // The raw side's frame: the `message.sent` frame chat pushed for its last warm-up message, with this message's
    // text; `message.echo` (as long as `message.sent`) tells the two apart.
    let template: Frame | undefined;
    const chatSentAt = (f: Frame) => (f['type'] === 'message.sent' && f['message']?.text?.startsWith('t=') ? Number(f['message'].text.slice(2)) : undefined);
    const rawSentAt = (f: Frame) => (f['type'] === 'message.echo' && f['message']?.text?.startsWith('t=') ? Number(f['message'].text.slice(2)) : undefined);
    const sendChat = (tag: string) => async (sentAt: number) => {
      const ack = await sender.call({ action: 'chat', op: 'send', roomId, clientMessageId: `${tag}-${sentAt}`, text: `t=${sentAt}` });
      template = { type: 'message.echo', roomId, message: ack['message'] };
    };
    const sendRaw = async (sentAt: number) => {
      const message = { ...template!['message'], seq: template!['message'].seq + 1, rev: template!['message'].rev + 1, clientMessageId: `bench-${sentAt}`, text: `t=${sentAt}` };
      await sender.call({ action: 'raw', op: 'send', data: { ...template, message } });
    };
    // Warm-up of both routes (workers, database connections and prepared statements, JIT): not measured.
    const warm: Side = { latencies: [], busyMs: 0, bytes: 0 };
    for (let n = 0; n < WARM_UP; n++) {
      await one(devClients, warm, chatSentAt, sendChat('warm'));
      await one(devClients, warm, rawSentAt, sendRaw);
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
    const loadBefore = os.loadavg()[0]!;
    for (let n = 1; n <= MESSAGES; n++) {
      await one(devClients, rawSide, rawSentAt, sendRaw);
      await one(devClients, chatSide, chatSentAt, sendChat('bench'));
    }
    const loadAfter = os.loadavg()[0]!;
    const raw = summary(rawSide);
    const chat = summary(chatSide);

    // The plain server has no ack: the sender's own copy of the broadcast is its ack.
    const plainSender = plainClients[0]!;
    const plainSide: Side = { latencies: [], busyMs: 0, bytes: 0 };
    const plainSentAt = (f: Frame) => (typeof f['sentAt'] === 'number' ? f['sentAt'] : undefined);
    for (let n = 1; n <= MESSAGES; n++) {
      await one(plainClients, plainSide, plainSentAt, (sentAt) => {
        plainSender.socket.send(JSON.stringify({ broadcast: { ...template, sentAt } }));
        return Promise.resolve();
      });
    }
    const plainRun = summary(plainSide);
    for (const client of [...devClients, ...plainClients]) client.socket.close();

    const line = (name: string, r: ReturnType<typeof summary>) =>
      console.log(`  ${name.padEnd(44)} ${r.rate.toFixed(1).padStart(7)} msg/s   p50 ${r.p50.toFixed(1).padStart(6)} ms   p99 ${r.p99.toFixed(1).padStart(6)} ms   ${r.samples} deliveries of ${r.bytes} B`);
    console.log(`\none sender, ${MEMBERS}-member room, ${MESSAGES} messages per side one at a time (raw and chat alternating), after ${WARM_UP} each of warm-up; load ${loadBefore.toFixed(1)} before, ${loadAfter.toFixed(1)} after:`);
    line(`chat send (fw dev, example app, ${ENGINE_LABEL})`, chat);
    line('raw publish (fw dev, same WebSocket API)', raw);
    line('plain ws broadcast (own process)', plainRun);
    console.log(`  chat / raw publish: p99 ${(chat.p99 / raw.p99).toFixed(2)}x (target: at most 2x), p50 ${(chat.p50 / raw.p50).toFixed(2)}x, messages/s ${(chat.rate / raw.rate).toFixed(2)}x`);
  } finally {
    await stop(dev.child);
    await stop(plain.child);
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

await main();
