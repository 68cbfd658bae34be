import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { Redis } from 'ioredis';

/** A `redis-server` started for a test on a free loopback port, without persistence, in a temporary directory. */
export interface RunningRedis {
  readonly port: number;
  /** A new `ioredis` client of it (the caller quits it). */
  client(options?: { readonly enableOfflineQueue?: boolean }): Redis;
  stop(): Promise<void>;
}

/** The `redis-server` binary on PATH, or undefined. */
function findRedisServer(): string | undefined {
  for (const dir of (process.env['PATH'] ?? '').split(path.delimiter)) {
    const file = dir && path.join(dir, 'redis-server');
    if (file && existsSync(file)) return file;
  }
  return undefined;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const address = s.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      s.close(() => resolve(port));
    });
  });
}

function exited(child: ChildProcess): Promise<void> {
  return child.exitCode !== null || child.signalCode !== null ? Promise.resolve() : new Promise((resolve) => child.once('exit', () => resolve()));
}

/** How many ports are tried when the one found free was taken before redis-server bound it. */
const BIND_ATTEMPTS = 3;

/** Starts one, or answers why it cannot (the tests skip with that reason). */
export async function startRedisServer(): Promise<RunningRedis | string> {
  const bin = findRedisServer();
  if (!bin) return 'redis-server is not installed (Debian: apt-get install redis-server; CI installs it in .ci/prepare-machine)';
  // The port is found free, closed, then bound by redis-server a moment later: another server of the run can take it
  // in between. redis-server then exits at once ("Address already in use"), and another port is tried.
  let failure = '';
  for (let attempt = 1; attempt <= BIND_ATTEMPTS; attempt++) {
    const started = await startOn(bin, await freePort());
    if (typeof started !== 'string') return started;
    failure = started;
  }
  return failure;
}

async function startOn(bin: string, port: number): Promise<RunningRedis | string> {
  const dir = mkdtempSync(path.join(tmpdir(), 'fw-tenancy-redis-'));
  const child = spawn(bin, ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir], { stdio: 'ignore' });
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited(child);
    rmSync(dir, { recursive: true, force: true });
  };
  // Ready once it answers PING (retried: the process needs a moment to listen).
  // Each try is bounded: a server of another kind that took the port may accept and never answer.
  const probe = new Redis({ host: '127.0.0.1', port, lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null, connectTimeout: 2_000, commandTimeout: 2_000 });
  probe.on('error', () => undefined); // refused while the server starts: retried below
  let ready = false;
  for (let attempt = 0; attempt < 200 && !ready && child.exitCode === null; attempt++) {
    try {
      await probe.connect();
      ready = (await probe.ping()) === 'PONG';
    } catch {
      probe.disconnect();
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  probe.disconnect();
  if (!ready) {
    const code = child.exitCode;
    await stop();
    return `redis-server did not start on port ${port}${code !== null ? ` (it exited with ${code})` : ''}`;
  }
  return {
    port,
    client: (options = {}) => new Redis({ host: '127.0.0.1', port, maxRetriesPerRequest: 1, ...(options.enableOfflineQueue === false ? { enableOfflineQueue: false } : {}) }),
    stop,
  };
}
