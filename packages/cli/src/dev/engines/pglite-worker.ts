/**
 * PGlite runs in this worker thread, not on the dev server's event loop: its WebAssembly Postgres computes
 * synchronously (seconds for a first `initdb`), which would otherwise stall every HTTP request.
 * workerData: `{ databases: { id, dir }[], host }`; posts `{ ports: [id, port][] }` or `{ error }`; stops on 'stop'.
 */
import * as fs from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';

interface Input {
  readonly databases: readonly { id: string; dir: string }[];
  readonly host: string;
}

const input = workerData as Input;
const running: { db: PGlite; server: PGLiteSocketServer }[] = [];

async function start(): Promise<void> {
  const ports: [string, number][] = [];
  for (const database of input.databases) {
    fs.mkdirSync(database.dir, { recursive: true });
    const db = await PGlite.create(database.dir);
    const server = new PGLiteSocketServer({ db, host: input.host, port: 0, maxConnections: 100 });
    await server.start();
    running.push({ db, server });
    ports.push([database.id, Number(server.getServerConn().split(':').pop())]);
  }
  parentPort!.postMessage({ ports });
}

async function stop(): Promise<void> {
  for (const { db, server } of running) {
    await server.stop().catch(() => undefined);
    await db.close().catch(() => undefined);
  }
  parentPort!.postMessage({ stopped: true });
  process.exit(0);
}

parentPort!.on('message', (message: unknown) => {
  if (message === 'stop') void stop();
});
start().catch((error: Error) => parentPort!.postMessage({ error: error.message }));
