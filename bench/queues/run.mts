/**
 * The cost of durability in `fw dev`'s queue engine: messages accepted per second by a queue kept in memory only (as
 * before the log existed) and by one whose `send` resolves only once the message is fsync'd to `.fw/queues/<id>.log`.
 * Measured on `LocalQueue.send` itself and over loopback HTTP through the engine's `POST /_dev/queues/<id>/messages`,
 * one sender at a time (every message waits for its own fdatasync) and 32 at a time (group commit shares them).
 * Messages are delayed, so no consumer runs. Blocks of both kinds alternate; each figure is the median of the blocks.
 *
 * Run: npx projen bench:queues
 */
import { defineApp, type AppDefinition } from '@framework/core';
import Fastify from 'fastify';
import * as fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { EmbeddedQueueEngine, LocalQueue, type DevContext } from '../../packages/cli/src/dev/engines/index.js';

const ROUNDS = 5;
const SEQUENTIAL = 300;
const CONCURRENT = 3000;
const IN_FLIGHT = 32;
const BODY = JSON.stringify({ type: 'task.created', taskId: '5f0c6a8e-2d4b-4f7e-9a51-0d2f3c1b7e42' });

function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

async function rate(count: number, inFlight: number, send: () => Promise<unknown>): Promise<number> {
  let next = 0;
  const start = process.hrtime.bigint();
  await Promise.all(
    Array.from({ length: inFlight }, async () => {
      while (next < count) {
        next++;
        await send();
      }
    }),
  );
  return count / (Number(process.hrtime.bigint() - start) / 1e9);
}

async function main(): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fw-bench-queues-'));
  fs.mkdirSync(path.join(dir, 'src', 'queues'), { recursive: true });
  fs.writeFileSync(path.join(dir, 'src', 'queues', 'jobs.ts'), 'export const main = async () => undefined;\n');
  const app: AppDefinition = defineApp({ base: { name: 'bench', region: 'eu-west-1' }, security: { scopes: {} }, envs: { dev: { preset: 'free' } }, rootDir: dir, stage: 'dev', infrastructure: { queues: [{ id: 'jobs' }] } });
  const quiet = { info: () => undefined, warn: () => undefined, error: () => undefined };
  const context: DevContext = { rootDir: dir, dataDir: path.join(dir, '.fw'), baseUrl: 'http://127.0.0.1', host: '127.0.0.1', log: quiet, currentApp: () => app, freePort: async () => 0, invoke: async () => ({ ok: true, value: {} }) };

  const memory = new LocalQueue('jobs', context);
  const engine = new EmbeddedQueueEngine();
  const started = await engine.start(app, context);
  const durable = engine.queues.get('jobs')!;
  const server = Fastify();
  server.removeAllContentTypeParsers();
  server.addContentTypeParser('*', { parseAs: 'buffer' }, (_r, body, done) => done(null, body));
  await server.register(started.plugin!);
  // The same route, served by a queue kept in memory: the engine as it was before the log.
  const memoryServer = Fastify();
  memoryServer.removeAllContentTypeParsers();
  memoryServer.addContentTypeParser('*', { parseAs: 'buffer' }, (_r, body, done) => done(null, body));
  const memoryEngine = new EmbeddedQueueEngine();
  await memoryServer.register((await memoryEngine.start(app, { ...context, dataDir: path.join(dir, '.fw-memory') })).plugin!);
  await memoryEngine.queues.get('jobs')!.close();
  memoryEngine.queues.set('jobs', memory);
  await server.listen({ port: 0, host: '127.0.0.1' });
  await memoryServer.listen({ port: 0, host: '127.0.0.1' });
  const url = (s: typeof server) => `http://127.0.0.1:${(s.server.address() as AddressInfo).port}/_dev/queues/jobs/messages`;
  const post = (target: string) => async () => {
    const response = await fetch(target, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ body: BODY, delaySeconds: 900 }) });
    if (response.status !== 202) throw new Error(`${response.status}: ${await response.text()}`);
    await response.arrayBuffer();
  };

  const cases: [string, number, number, () => Promise<unknown>, () => Promise<unknown>][] = [
    ['LocalQueue.send, 1 at a time', SEQUENTIAL, 1, () => memory.send(BODY, 900), () => durable.send(BODY, 900)],
    [`LocalQueue.send, ${IN_FLIGHT} at a time`, CONCURRENT, IN_FLIGHT, () => memory.send(BODY, 900), () => durable.send(BODY, 900)],
    ['HTTP POST, 1 at a time', SEQUENTIAL, 1, post(url(memoryServer)), post(url(server))],
    [`HTTP POST, ${IN_FLIGHT} at a time`, CONCURRENT, IN_FLIGHT, post(url(memoryServer)), post(url(server))],
  ];
  console.log(`fw dev queue send throughput (messages/s, median of ${ROUNDS} blocks; ${os.cpus().length} cores, Node ${process.version})`);
  console.log('| case | in memory | durable (fdatasync) | ratio |');
  console.log('|---|---|---|---|');
  for (const [name, count, inFlight, inMemory, onDisk] of cases) {
    const before: number[] = [];
    const after: number[] = [];
    await rate(Math.min(count, 200), inFlight, inMemory);
    await rate(Math.min(count, 200), inFlight, onDisk);
    for (let round = 0; round < ROUNDS; round++) {
      before.push(await rate(count, inFlight, inMemory));
      after.push(await rate(count, inFlight, onDisk));
    }
    const [m, d] = [median(before), median(after)];
    console.log(`| ${name} | ${Math.round(m)} | ${Math.round(d)} | ${(d / m).toFixed(2)} |`);
  }
  const log = durable as unknown as { log: { stats: { flushes: number; records: number; compactions: number } } };
  console.log(`\ndurable queue: ${log.log.stats.records} records in ${log.log.stats.flushes} flushes (${(log.log.stats.records / log.log.stats.flushes).toFixed(1)} a flush), ${log.log.stats.compactions} compactions`);
  await server.close();
  await memoryServer.close();
  memory.stop();
  await engine.stop();
  fs.rmSync(dir, { recursive: true, force: true });
}

await main();
