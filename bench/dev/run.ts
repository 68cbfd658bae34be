/**
 * `npm run bench:dev` (projen task): fw dev against plain Fastify serving the same handler in-process.
 * Prints: GET /health requests per second (and the ratio to plain Fastify), edit-to-new-response median of 20 edits,
 * launch to first 200 (installed project, second launch), resident memory after 10,000 requests and 100 edits.
 * Runs on a copy of examples/tasks-api in a temporary folder (its node_modules linked to the repository's).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { load } from './load';

const repo = path.resolve(__dirname, '..', '..');
const cli = path.join(repo, 'packages', 'cli', 'lib', 'bin', 'fw.js');
const HEALTH = path.join('src', 'routes', 'health', 'get.ts');

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

function copyProject(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fw-bench-dev-'));
  const source = path.join(repo, 'examples', 'tasks-api');
  fs.cpSync(source, dir, { recursive: true, filter: (src) => !/[\\/](node_modules|\.fw)$/.test(src) });
  fs.symlinkSync(path.join(repo, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
  return dir;
}

function get(url: string, agent?: http.Agent): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const request = http.get(url, { agent }, (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (d: string) => (body += d));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
    });
    request.on('error', reject);
    request.setTimeout(15_000, () => request.destroy(new Error(`no answer from ${url} in 15 s`)));
  });
}

async function startDev(dir: string, port: number): Promise<{ child: ChildProcess; launchMs: number }> {
  const started = performance.now();
  const child = spawn(process.execPath, [cli, 'dev', '--port', String(port), '--engine', 'databases=embedded'], { cwd: dir, stdio: ['ignore', process.env.BENCH_VERBOSE ? 'inherit' : 'ignore', 'inherit'] });
  for (;;) {
    try {
      if ((await get(`http://127.0.0.1:${port}/health`)).status === 200) return { child, launchMs: performance.now() - started };
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

async function startPlain(bundle: string, port: number): Promise<ChildProcess> {
  const child = spawn(process.execPath, [path.join(__dirname, 'plain-fastify.mjs'), bundle, String(port)], { stdio: ['ignore', 'pipe', 'inherit'] });
  await new Promise<void>((resolve) => child.stdout!.on('data', (d: Buffer) => d.toString().includes('ready') && resolve()));
  return child;
}

function rssMb(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)![1]) / 1024;
}

/** RSS of the child processes of `pid` (the embedded database's PGlite process), MB. */
function childrenRssMb(pid: number): number {
  let total = 0;
  for (const task of fs.readdirSync(`/proc/${pid}/task`)) {
    const children = fs.readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').trim().split(/\s+/).filter(Boolean);
    for (const child of children) total += rssMb(Number(child));
  }
  return total;
}

async function editAndWait(dir: string, url: string, marker: string, agent: http.Agent): Promise<number> {
  const file = path.join(dir, HEALTH);
  const text = fs.readFileSync(file, 'utf8').replace(/status: '[^']*'/, `status: '${marker}'`);
  const started = performance.now();
  fs.writeFileSync(file, text);
  for (;;) {
    const response = await get(url, agent);
    if (response.body.includes(marker)) return performance.now() - started;
    if (performance.now() - started > 10_000) throw new Error(`edit ${marker} not served after 10 s; last answer ${response.status} ${response.body.slice(0, 200)}`);
  }
}

const progress = (text: string) => process.stderr.write(`[bench:dev] ${text}\n`);
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function main(): Promise<void> {
  const dir = copyProject();
  const port = await freePort();
  const url = `http://127.0.0.1:${port}/health`;
  const seconds = Number(process.env.BENCH_SECONDS ?? 5);
  let dev: ChildProcess | undefined;
  let plain: ChildProcess | undefined;
  try {
    // First launch creates .fw (database, keys, builds): the "installed project" is the second one.
    progress('first launch');
    const first = await startDev(dir, port);
    await stop(first.child);
    const second = await startDev(dir, port);
    dev = second.child;
    const launchRss = rssMb(dev.pid!);
    console.log(`launch to first 200 (installed project): ${second.launchMs.toFixed(0)} ms (first launch ${first.launchMs.toFixed(0)} ms), target <= 1000 ms`);

    progress('requests per second');
    const bundle = path.join(dir, '.fw', 'dev', 'build', 'src', 'routes', 'health', 'get.mjs');
    const plainPort = await freePort();
    plain = await startPlain(bundle, plainPort);
    const plainUrl = `http://127.0.0.1:${plainPort}/health`;
    // Warm both, then interleave rounds so background load hits both alike.
    await load(url, { connections: 10, durationMs: 1000 });
    await load(plainUrl, { connections: 10, durationMs: 1000 });
    const devRuns: number[] = [];
    const plainRuns: number[] = [];
    for (let round = 0; round < 2; round++) {
      plainRuns.push((await load(plainUrl, { connections: 10, durationMs: seconds * 1000 })).perSecond);
      devRuns.push((await load(url, { connections: 10, durationMs: seconds * 1000 })).perSecond);
    }
    await stop(plain);
    const devRps = devRuns.reduce((a, b) => a + b) / devRuns.length;
    const plainRps = plainRuns.reduce((a, b) => a + b) / plainRuns.length;
    console.log(`GET /health req/s: fw dev ${devRps.toFixed(0)}, plain Fastify ${plainRps.toFixed(0)}, ratio ${(devRps / plainRps).toFixed(2)} (target >= 0.50)`);

    progress('20 edits');
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const edits: number[] = [];
    for (let i = 0; i < 20; i++) {
      edits.push(await editAndWait(dir, url, `ok-edit-${i}`, agent));
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const sorted = [...edits].sort((a, b) => a - b);
    const plainRequestMs = 10_000 / plainRps;
    console.log(`edit-to-new-response, median of 20 edits: ${median(edits).toFixed(1)} ms (min ${sorted[0]!.toFixed(1)}, max ${sorted[19]!.toFixed(1)}), ${(median(edits) / plainRequestMs).toFixed(0)}x one plain Fastify request at 10 connections (${plainRequestMs.toFixed(2)} ms), target <= 50 ms`);

    progress('10,000 requests and 80 more edits');
    await load(url, { connections: 10, total: 10_000 });
    progress('80 more edits');
    for (let i = 20; i < 100; i++) await editAndWait(dir, url, `ok-edit-${i}`, agent);
    progress('1,000 more requests');
    await load(url, { connections: 10, total: 1000 });
    const rss = rssMb(dev.pid!);
    const database = childrenRssMb(dev.pid!);
    agent.destroy();
    console.log(`RSS of fw dev after 10,000 requests and 100 edits: ${rss.toFixed(0)} MB (${(rss / launchRss).toFixed(2)}x its ${launchRss.toFixed(0)} MB after launch), target < 300 MB; the embedded database's own process: ${database.toFixed(0)} MB`);
  } catch (error) {
    console.error(`[bench:dev] failed: ${(error as Error).stack ?? String(error)}`);
    process.exitCode = 1;
  } finally {
    if (plain) await stop(plain);
    if (dev) await stop(dev);
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
