import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chownSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import type { RunningEngine } from './pglite-server.js';

const exec = promisify(execFile);

/** Where Debian puts the server binaries; PATH is tried first. */
const DEBIAN_BIN = '/usr/lib/postgresql/15/bin';

interface Server {
  readonly port: number;
  readonly dataDir: string;
  readonly bin: string;
  readonly asUser?: string;
}

let starting: Promise<Server | string> | undefined;

/**
 * Why the native server cannot run here, or undefined when it can. PostgreSQL refuses to run as root: as root the
 * test runs it as the `postgres` system user (created by the Debian package).
 */
async function findBin(): Promise<string | { reason: string }> {
  for (const dir of [...(process.env['PATH'] ?? '').split(path.delimiter), DEBIAN_BIN]) {
    if (dir && existsSync(path.join(dir, 'initdb')) && existsSync(path.join(dir, 'pg_ctl'))) return dir;
  }
  return { reason: 'PostgreSQL server binaries (initdb, pg_ctl) are not installed' };
}

async function freePort(): Promise<number> {
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

async function run(server: Pick<Server, 'bin' | 'asUser'>, tool: string, args: string[]): Promise<void> {
  const file = path.join(server.bin, tool);
  if (server.asUser) await exec('runuser', ['-u', server.asUser, '--', file, ...args]);
  else await exec(file, args);
}

async function start(): Promise<Server | string> {
  const bin = await findBin();
  if (typeof bin !== 'string') return bin.reason;
  let asUser: string | undefined;
  let owner: { uid: number; gid: number } | undefined;
  if (process.getuid?.() === 0) {
    try {
      const [{ stdout: uid }, { stdout: gid }] = await Promise.all([exec('id', ['-u', 'postgres']), exec('id', ['-g', 'postgres'])]);
      owner = { uid: Number(uid.trim()), gid: Number(gid.trim()) };
      asUser = 'postgres';
    } catch {
      return 'running as root and there is no "postgres" user to run the server as (PostgreSQL refuses root)';
    }
  }
  const dataDir = mkdtempSync(path.join(tmpdir(), 'fw-data-pg-'));
  if (owner) chownSync(dataDir, owner.uid, owner.gid);
  const pgdata = path.join(dataDir, 'data');
  await run({ bin, ...(asUser ? { asUser } : {}) }, 'initdb', ['-D', pgdata, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-sync', '--no-instructions']);
  // The port is found free, closed, then bound by postgres itself a moment later: another server of the run (they
  // start in parallel) can take it in between. postgres then exits saying "could not bind"; another port is tried.
  for (let attempt = 1; ; attempt++) {
    const port = await freePort();
    const server: Server = { port, dataDir, bin, ...(asUser ? { asUser } : {}) };
    // Durability off: this server holds throwaway test data, and fsync would dominate the test time.
    const options = `-h 127.0.0.1 -p ${port} -k ${dataDir} -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=50`;
    const serverLog = path.join(dataDir, `server-${attempt}.log`);
    try {
      await run(server, 'pg_ctl', ['-D', pgdata, '-l', serverLog, '-o', options, '-w', '-t', '60', 'start']);
      return server;
    } catch (error) {
      const said = existsSync(serverLog) ? readFileSync(serverLog, 'utf8') : '';
      if (attempt >= BIND_ATTEMPTS || !/could not bind|Address already in use/i.test(said)) throw error;
    }
  }
}

/** How many ports are tried when the one found free was taken before postgres bound it. */
const BIND_ATTEMPTS = 3;

async function stop(server: Server): Promise<void> {
  await run(server, 'pg_ctl', ['-D', path.join(server.dataDir, 'data'), '-m', 'immediate', '-w', 'stop']).catch(() => undefined);
  rmSync(server.dataDir, { recursive: true, force: true });
}

// One server for the whole test run, started on first use and stopped by a root-level hook after every test.
if (typeof after === 'function') {
  after(async function () {
    this.timeout(60_000);
    const s = await starting;
    starting = undefined;
    if (s && typeof s !== 'string') await stop(s);
  });
}

/** The reason the native server is unavailable (the tests using it skip with it), or a fresh database on it. */
export async function startNativePostgres(): Promise<RunningEngine | string> {
  starting ??= start().catch((error: Error) => `the PostgreSQL server did not start: ${error.message}`);
  const server = await starting;
  if (typeof server === 'string') return server;
  const database = `t_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ host: '127.0.0.1', port: server.port, user: 'postgres', database: 'postgres' });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${database}`);
  } finally {
    await admin.end();
  }
  return {
    name: 'PostgreSQL',
    connection: { host: '127.0.0.1', port: server.port, database, user: 'postgres', ssl: false },
    async stop() {
      const c = new pg.Client({ host: '127.0.0.1', port: server.port, user: 'postgres', database: 'postgres' });
      await c.connect();
      try {
        // A pool's end() resolves once its clients are told to close, not once they have: a connection still closing
        // when the database is dropped WITH (FORCE) is sent 57P01 (admin shutdown), which a test's own pool (no error
        // listener) raises as an uncaught error: CI of 2026-11-24 05:04 UTC (pro-tenancy) and 07:42 UTC (pro-billing). Those close within
        // milliseconds: wait for them first (up to 500 ms). What is still connected after that is a connection the
        // suite left open (its Database's pool takes the notice), and the drop cuts it off as before.
        for (let waited = 0; waited < 500; waited += 20) {
          const { rows } = await c.query<{ open: number }>('SELECT count(*)::int AS open FROM pg_stat_activity WHERE datname = $1', [database]);
          if (rows[0]!.open === 0) break;
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
        await c.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
      } finally {
        await c.end();
      }
    },
  };
}
