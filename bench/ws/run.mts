/**
 * `fw dev`'s WebSocket API against a plain `ws` server, in the same run, both in their own process on loopback:
 *
 * - messages per second through `$default` echoing (`service.ws.send` back to the sender, as an app answers) on 50
 *   connections, each with one message in flight; blocks of both alternate, the figure is the median of the blocks.
 *   Target: fw dev at least 30% of plain `ws`.
 * - broadcast of one message to 1,000 connections: from the request (fw dev: `POST /broadcast`, a route calling
 *   `service.ws.broadcast(ids, data)`; plain: one message asking the server to send to all) to the last delivery.
 *   Reported, no target.
 *
 * Run: npx projen bench:ws   (BENCH_WS_BLOCKS, BENCH_WS_MESSAGES per block, BENCH_WS_FANOUT connections)
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
const CONNECTIONS = 50;
const BLOCKS = Number(process.env.BENCH_WS_BLOCKS ?? 6);
const MESSAGES = Number(process.env.BENCH_WS_MESSAGES ?? 5000);
const FANOUT = Number(process.env.BENCH_WS_FANOUT ?? 1000);
const FANOUT_ROUNDS = 5;
const PAYLOAD = { text: 'hello', n: 0 };

function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

/** A project with a `$default` echo and a route that broadcasts; no auth, so no token at connect. */
function project(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fw-bench-ws-'));
  const files: Record<string, string> = {
    'package.json': JSON.stringify({ name: 'bench-ws', version: '0.0.0', private: true, type: 'module' }),
    'tsconfig.json': fs.readFileSync(path.join(repo, 'examples', 'tasks-api', 'tsconfig.json'), 'utf8'),
    'fw.config.ts': `import { defineApp } from '@framework/core';\nexport default defineApp({ base: { name: 'bench-ws', region: 'eu-west-1' }, security: { scopes: {} }, envs: { dev: { preset: 'free' } }, routesDir: 'src/routes', infrastructure: {} });\n`,
    'src/ws/$default.ts': `import { wsHandler } from '@framework/runtime';\nexport const main = wsHandler(async (message, ctx, service) => { await service.ws.send(ctx.connectionId, message); });\n`,
    'src/ws/whoami.ts': `import { wsHandler } from '@framework/runtime';\nexport const main = wsHandler(async (_message, ctx, service) => { await service.ws.send(ctx.connectionId, { connectionId: ctx.connectionId }); });\n`,
    'src/routes/broadcast/post.ts': `import { handler } from '@framework/runtime';\nexport const main = handler<{ connectionIds: string[]; data: unknown }>(async (body, _ctx, service) => { const r = await service.ws.broadcast(body.connectionIds, body.data); return { sent: r.sent.length, gone: r.gone.length, failed: r.failed.length }; });\n`,
  };
  for (const [file, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    fs.writeFileSync(path.join(dir, file), text);
  }
  fs.symlinkSync(path.join(repo, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
  return dir;
}

async function startDev(dir: string): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, [...(process.env.BENCH_WS_PROFILE ? ['--cpu-prof', '--cpu-prof-dir', process.env.BENCH_WS_PROFILE] : []), cli, 'dev', '--port', '0', '--no-typecheck', ...(process.env.BENCH_WS_QUIET ? ['--quiet'] : [])], { cwd: dir, stdio: ['ignore', 'pipe', 'inherit']});
  let output = '';
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout!.on('data', (d: Buffer) => {
      output += d.toString();
      const m = /serving at (http:\/\/\S+)/.exec(output);
      if (m) resolve(m[1]!);
    });
    child.once('exit', (code) => reject(new Error(`fw dev exited with ${code}:\n${output}`)));
  });
  // Keep draining its output (the activity lines) so it never blocks on a full pipe.
  child.stdout!.resume();
  return { child, url };
}

async function startPlain(): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, [path.join(here, 'plain-echo.mjs')], { stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise<string>((resolve) => child.stdout!.on('data', (d: Buffer) => /ready (\d+)/.test(d.toString()) && resolve(/ready (\d+)/.exec(d.toString())![1]!)));
  return { child, url: `ws://127.0.0.1:${port}` };
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

function connect(url: string): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url, { perMessageDeflate: false });
    socket.once('open', () => resolve(socket));
    socket.once('error', reject);
  });
}

async function connectAll(url: string, count: number): Promise<WebSocket[]> {
  const sockets: WebSocket[] = [];
  // 100 at a time: a burst of 1,000 upgrades would measure the accept backlog, not the API.
  for (let i = 0; i < count; i += 100) sockets.push(...(await Promise.all(Array.from({ length: Math.min(100, count - i) }, () => connect(url)))));
  return sockets;
}

/** `count` messages over `sockets`, each socket with one in flight (send, wait for the echo, send the next): messages/s. */
async function echoRate(sockets: WebSocket[], count: number): Promise<number> {
  let next = 0;
  const started = process.hrtime.bigint();
  await Promise.all(
    sockets.map(
      (socket) =>
        new Promise<void>((resolve, reject) => {
          const sendNext = () => {
            if (next >= count) {
              socket.off('message', onMessage);
              resolve();
              return;
            }
            next++;
            socket.send(JSON.stringify({ ...PAYLOAD, n: next }));
          };
          const onMessage = () => sendNext();
          socket.on('message', onMessage);
          socket.once('close', (code) => reject(new Error(`closed with ${code}`)));
          sendNext();
        }),
    ),
  );
  return count / (Number(process.hrtime.bigint() - started) / 1e9);
}

/** Resolves when every socket received one message: ms from `trigger` to the last delivery. */
async function timeToLast(sockets: WebSocket[], trigger: () => Promise<void>): Promise<number> {
  const delivered = Promise.all(sockets.map((socket) => new Promise<void>((resolve) => socket.once('message', () => resolve()))));
  const started = process.hrtime.bigint();
  await trigger();
  await delivered;
  return Number(process.hrtime.bigint() - started) / 1e6;
}

async function main(): Promise<void> {
  const dir = project();
  const dev = await startDev(dir);
  const plain = await startPlain();
  const devWs = `${dev.url.replace(/^http/, 'ws')}/_ws`;
  try {
    console.log(`fw dev ${dev.url}, plain ws ${plain.url}; ${os.cpus().length} CPUs, load ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}`);
    const devSockets = await connectAll(devWs, CONNECTIONS);
    const plainSockets = await connectAll(plain.url, CONNECTIONS);
    // Warm-up: the handler's worker, its SDK client, the JIT on both sides.
    await echoRate(devSockets, 1000);
    await echoRate(plainSockets, 1000);
    const rates = { dev: [] as number[], plain: [] as number[] };
    for (let block = 0; block < BLOCKS; block++) {
      const order = block % 2 ? (['plain', 'dev'] as const) : (['dev', 'plain'] as const);
      for (const side of order) rates[side].push(await echoRate(side === 'dev' ? devSockets : plainSockets, MESSAGES));
    }
    for (const socket of [...devSockets, ...plainSockets]) socket.close();
    const dev50 = median(rates.dev);
    const plain50 = median(rates.plain);
    console.log(`\n$default echo, ${CONNECTIONS} connections, one message in flight each, ${MESSAGES} messages x ${BLOCKS} blocks:`);
    console.log(`  fw dev   ${dev50.toFixed(0)} msg/s  (blocks ${rates.dev.map((r) => r.toFixed(0)).join(', ')})`);
    console.log(`  plain ws ${plain50.toFixed(0)} msg/s  (blocks ${rates.plain.map((r) => r.toFixed(0)).join(', ')})`);
    console.log(`  fw dev / plain ws: ${((dev50 / plain50) * 100).toFixed(1)}% (target: at least 30%)`);

    // Broadcast to FANOUT connections.
    const fanDev = await connectAll(devWs, FANOUT);
    const ids = await Promise.all(
      fanDev.map(
        (socket) =>
          new Promise<string>((resolve) => {
            socket.once('message', (data: Buffer) => resolve(JSON.parse(data.toString('utf8')).connectionId));
            socket.send(JSON.stringify({ action: 'whoami' }));
          }),
      ),
    );
    const fanPlain = await connectAll(plain.url, FANOUT);
    const times = { dev: [] as number[], plain: [] as number[] };
    for (let round = 0; round < FANOUT_ROUNDS; round++) {
      times.dev.push(
        await timeToLast(fanDev, async () => {
          const response = await fetch(`${dev.url}/broadcast`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ connectionIds: ids, data: { round } }) });
          const result = (await response.json()) as { sent: number };
          if (result.sent !== FANOUT) throw new Error(`broadcast sent ${JSON.stringify(result)}`);
        }),
      );
      times.plain.push(await timeToLast(fanPlain, async () => void fanPlain[0]!.send(JSON.stringify({ broadcast: { round } }))));
    }
    for (const socket of [...fanDev, ...fanPlain]) socket.close();
    console.log(`\nbroadcast of one message to ${FANOUT} connections, time to the last delivery (median of ${FANOUT_ROUNDS}):`);
    console.log(`  fw dev (POST /broadcast, a route calling service.ws.broadcast) ${median(times.dev).toFixed(0)} ms  (rounds ${times.dev.map((t) => t.toFixed(0)).join(', ')})`);
    console.log(`  plain ws (the server loops over its clients)                 ${median(times.plain).toFixed(1)} ms  (rounds ${times.plain.map((t) => t.toFixed(1)).join(', ')})`);
  } finally {
    await stop(dev.child);
    await stop(plain.child);
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

await main();
