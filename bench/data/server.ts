import { execFileSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import * as path from 'node:path';

export interface BenchServer {
  readonly label: string;
  readonly port: number;
  stop(): Promise<void>;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const a = s.address();
      s.close(() => resolve(typeof a === 'object' && a ? a.port : 0));
    });
  });
}

function binDir(): string | undefined {
  const dirs = [...(process.env['PATH'] ?? '').split(path.delimiter), '/usr/lib/postgresql/15/bin'];
  return dirs.find((d) => d && existsSync(path.join(d, 'initdb')) && existsSync(path.join(d, 'pg_ctl')));
}

/** A throwaway native PostgreSQL (as the `postgres` user when running as root), or undefined when not installed. */
export async function startNative(): Promise<BenchServer | undefined> {
  const bin = binDir();
  if (!bin) return undefined;
  const root = process.getuid?.() === 0;
  const run = (tool: string, args: string[]) => (root ? execFileSync('runuser', ['-u', 'postgres', '--', path.join(bin, tool), ...args]) : execFileSync(path.join(bin, tool), args));
  const dir = mkdtempSync(path.join(tmpdir(), 'fw-bench-pg-'));
  if (root) {
    const uid = Number(execFileSync('id', ['-u', 'postgres']).toString().trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres']).toString().trim());
    chownSync(dir, uid, gid);
  }
  const port = await freePort();
  const data = path.join(dir, 'data');
  run('initdb', ['-D', data, '-U', 'postgres', '--auth=trust', '--no-sync', '--no-instructions']);
  run('pg_ctl', ['-D', data, '-l', path.join(dir, 'log'), '-o', `-h 127.0.0.1 -p ${port} -k ${dir} -c fsync=off`, '-w', 'start']);
  return {
    label: 'native PostgreSQL',
    port,
    async stop() {
      try {
        run('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}

/** PGlite behind pglite-socket, as `fw dev` serves it. */
export async function startPglite(): Promise<BenchServer> {
  const { PGlite } = await import('@electric-sql/pglite');
  const { PGLiteSocketServer } = await import('@electric-sql/pglite-socket');
  const db = await PGlite.create();
  const { oneExchangeAtATime } = await import('@framework/data/pglite');
  const server = new PGLiteSocketServer({ db: oneExchangeAtATime(db), host: '127.0.0.1', port: 0, maxConnections: 10 });
  await server.start();
  return {
    label: 'PGlite (pglite-socket)',
    port: Number(server.getServerConn().split(':').pop()),
    async stop() {
      await server.stop();
      await db.close();
    },
  };
}
