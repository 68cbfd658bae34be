import { fork, spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { DatabaseDefinition } from '@framework/core';
import type pg from 'pg';
import { DevServerError } from '../../errors.js';
import { compiledEntry } from '../../package-files.js';
import { childEnv, childExecArgv } from '../debugger/child-node-options.js';
import type { DevLogger } from './engine.js';
import { findOnPath, freePort } from './ports.js';

/** A running PostgreSQL server for the app's databases: where each database id answers. */
export interface RunningPostgres {
  readonly ports: ReadonlyMap<string, number>;
  readonly description: string;
  stop(): Promise<void>;
}

/** A way to run PostgreSQL locally. */
export interface PostgresBackend {
  readonly label: string;
  start(databases: readonly DatabaseDefinition[], dataDir: string, host: string, log: DevLogger): Promise<RunningPostgres>;
}

/**
 * PGlite (Postgres compiled to WebAssembly) with its data in `.fw/databases/<id>/pglite`, one instance per database,
 * each served over the wire protocol by pglite-socket, all in one child process (see `pglite-worker.ts`). PGlite has one database per instance and no passwords, so
 * any database name and user `postgres` connect.
 */
export const pgliteBackend: PostgresBackend = {
  label: 'PGlite',
  async start(databases, dataDir, host) {
    const child = fork(fileURLToPath(compiledEntry('dev/engines/pglite-worker.js')), [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'], serialization: 'json', execArgv: childExecArgv(), env: childEnv() });
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.send({ host, databases: databases.map((d) => ({ id: d.id, dir: path.join(dataDir, 'databases', d.id, 'pglite') })) });
    const ports = await new Promise<Map<string, number>>((resolve, reject) => {
      child.once('message', (message: { ports?: [string, number][]; error?: string }) => (message.ports ? resolve(new Map(message.ports)) : reject(new Error(message.error ?? 'PGlite failed'))));
      child.once('error', reject);
      void exited.then(() => reject(new Error('the PGlite process exited while starting')));
    }).catch((error: unknown) => {
      child.kill('SIGKILL');
      throw error;
    });
    const stop = async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.send('stop');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
      await exited;
      clearTimeout(timer);
    };
    return { ports, description: 'PGlite (embedded, in a child process)', stop };
  },
};

/** The uid/gid to run postgres as when `fw dev` runs as root (postgres refuses to run as root). */
export function postgresUser(): { uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const line = fs
    .readFileSync('/etc/passwd', 'utf8')
    .split('\n')
    .find((l) => l.startsWith('postgres:'));
  const fields = line?.split(':');
  if (!fields) throw new DevServerError('FW_ERR_DEV_ENGINE_START', 'postgres refuses to run as root and there is no "postgres" user to run it as: run fw dev as a normal user, or use --engine databases=embedded');
  return { uid: Number(fields[2]), gid: Number(fields[3]) };
}

/**
 * Whether postgres can reach `<rootDir>/.fw`: always when `fw dev` is not root; as root (postgres then runs as the
 * `postgres` user), only when every folder up to the project lets others or that user through.
 */
export function postgresCanReach(rootDir: string): boolean {
  if (process.getuid?.() !== 0) return true;
  let user: { uid: number; gid: number } | undefined;
  try {
    user = postgresUser();
  } catch {
    return false;
  }
  for (let dir = path.resolve(rootDir); ; dir = path.dirname(dir)) {
    const stat = fs.statSync(dir);
    const ok = stat.uid === user!.uid ? (stat.mode & 0o100) !== 0 : stat.gid === user!.gid ? (stat.mode & 0o010) !== 0 : (stat.mode & 0o001) !== 0;
    if (!ok) return false;
    if (path.dirname(dir) === dir) return true;
  }
}

function run(command: string, args: string[], user: { uid: number; gid: number } | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['ignore', 'ignore', 'pipe'], ...(user ?? {}) });
    let stderr = '';
    child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`${command} exited with ${code}: ${stderr.trim()}`))));
  });
}

/** `pg`, loaded on first use: an app without a database does not pay for its import at start-up. */
async function pgClient(config: pg.ClientConfig): Promise<pg.Client> {
  const { default: driver } = await import('pg');
  return new driver.Client(config);
}

async function waitForServer(port: number, host: string, child: ChildProcess, output: () => string): Promise<void> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`postgres exited with ${child.exitCode}: ${output().trim()}`);
    // A server that is not this postgres (it took the port first) may accept and never answer: each try is bounded.
    const client = await pgClient({ host, port, user: 'postgres', database: 'postgres', connectionTimeoutMillis: 2_000 });
    try {
      await client.connect();
      await client.end();
      return;
    } catch (error) {
      await client.end().catch(() => undefined);
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
}

/**
 * The `postgres` server on PATH (Debian's `postgresql` package, Homebrew's, ...): one cluster for the project in
 * `.fw/databases/native` (created with `initdb` on first use, trust authentication, user `postgres`), started on a
 * free port bound to the dev server's address, with a database per database intent. When `fw dev` runs as root,
 * postgres runs as the `postgres` user, which must be able to reach the project folder.
 */
export const nativeBackend: PostgresBackend = nativePostgres();

/** The native backend, with the way it picks a port (a test picks a taken one). */
export function nativePostgres(pickPort: (host: string) => Promise<number> = freePort): PostgresBackend {
  return {
    label: 'postgres on PATH',
    async start(databases, dataDir, host, log) {
      const postgres = findOnPath('postgres');
      const initdb = findOnPath('initdb');
      if (!postgres || !initdb) throw new DevServerError('FW_ERR_DEV_NO_ENGINE', 'postgres and initdb are not on PATH: install PostgreSQL or use --engine databases=embedded');
      const user = postgresUser();
      const dir = path.join(dataDir, 'databases', 'native');
      // Our own folders on the way must let the postgres user through when it is not us.
      for (const folder of [dataDir, path.join(dataDir, 'databases')]) {
        fs.mkdirSync(folder, { recursive: true });
        if (user) fs.chmodSync(folder, fs.statSync(folder).mode | 0o011);
      }
      if (!fs.existsSync(path.join(dir, 'PG_VERSION'))) {
        fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
        if (user) fs.chownSync(dir, user.uid, user.gid);
        log.info(`databases: creating a PostgreSQL cluster in ${path.relative(process.cwd(), dir) || dir} (first run)`);
        await run(initdb, ['-D', dir, '-U', 'postgres', '-A', 'trust', '-E', 'UTF8', '--no-sync', '--no-instructions'], user);
      }
      const { port, stop } = await startOnFreePort(postgres, dir, host, user, pickPort);
      try {
        const admin = await pgClient({ host, port, user: 'postgres', database: 'postgres' });
        await admin.connect();
        try {
          for (const database of databases) {
            const exists = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [database.databaseName]);
            if (exists.rowCount === 0) await admin.query(`CREATE DATABASE "${database.databaseName.replace(/"/g, '""')}"`);
          }
        } finally {
          await admin.end();
        }
      } catch (error) {
        await stop();
        throw error;
      }
      return { ports: new Map(databases.map((d) => [d.id, port])), description: `postgres on PATH (${fs.realpathSync(postgres)})`, stop };
    },
  };
}

/** How often a port found free is tried again when postgres finds it taken. */
const BIND_ATTEMPTS = 3;

/**
 * Starts postgres on a port found free, and waits until it answers. postgres binds it itself, a moment after it was
 * found free: when something took it meanwhile (another server's `listen(0)`, an outgoing connection's local end),
 * postgres exits saying so, and another free port is tried.
 */
async function startOnFreePort(postgres: string, dir: string, host: string, user: { uid: number; gid: number } | undefined, pickPort: (host: string) => Promise<number>) {
  for (let attempt = 1; ; attempt++) {
    const port = await pickPort(host);
    const child = spawn(postgres, ['-D', dir, '-p', String(port), '-c', `listen_addresses=${host}`, '-c', 'unix_socket_directories=', '-c', 'fsync=off'], {
      stdio: ['ignore', 'ignore', 'pipe'],
      ...(user ?? {}),
    });
    let stderr = '';
    child.stderr!.on('data', (d: Buffer) => (stderr = (stderr + d.toString()).slice(-4000)));
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    const stop = async () => {
      if (child.exitCode === null) {
        child.kill('SIGINT');
        await exited;
      }
    };
    try {
      await waitForServer(port, host, child, () => stderr);
      return { port, stop };
    } catch (error) {
      await stop();
      if (attempt < BIND_ATTEMPTS && child.exitCode !== null && /could not bind|Address already in use/i.test(stderr)) continue;
      throw error;
    }
  }
}
