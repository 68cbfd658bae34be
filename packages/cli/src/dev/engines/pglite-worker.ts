/**
 * PGlite runs in this child process (started by `pgliteBackend` with `fork`), not in `fw dev`: its WebAssembly
 * Postgres computes synchronously (seconds for a first `initdb`) and holds a large heap, which would otherwise stall
 * every HTTP request and inflate the dev server's memory.
 * First message in: `{ databases: { id, dir }[], host }`; answers `{ ports: [id, port][] }` or `{ error }`;
 * message 'stop' closes the databases and exits. Exits too when `fw dev` goes away (IPC channel closed).
 */
import * as fs from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import { vector } from '@electric-sql/pglite-pgvector';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';
import { oneExchangeAtATime } from '@framework/data/pglite';

interface Input {
  readonly databases: readonly { id: string; dir: string }[];
  readonly host: string;
}

const running: { db: PGlite; server: PGLiteSocketServer }[] = [];

function send(message: unknown): void {
  process.send?.(message);
}

async function start(input: Input): Promise<void> {
  const ports: [string, number][] = [];
  for (const database of input.databases) {
    fs.mkdirSync(database.dir, { recursive: true });
    // pgvector is loaded (not created): an app's migration `CREATE EXTENSION IF NOT EXISTS vector` works as on Aurora.
    const db = await PGlite.create(database.dir, { extensions: { vector } });
    // The functions' pools share the one PGlite session: each connection has it for a whole exchange (see
    // oneExchangeAtATime: pglite-socket alone interleaves two connections' parameterized queries).
    const server = new PGLiteSocketServer({ db: oneExchangeAtATime(db), host: input.host, port: 0, maxConnections: 100 });
    await server.start();
    running.push({ db, server });
    ports.push([database.id, Number(server.getServerConn().split(':').pop())]);
  }
  send({ ports });
}

async function stop(): Promise<never> {
  for (const { db, server } of running) {
    await server.stop().catch(() => undefined);
    await db.close().catch(() => undefined);
  }
  process.exit(0);
}

process.on('message', (message: unknown) => {
  if (message === 'stop') void stop();
  else start(message as Input).catch((error: Error) => send({ error: error.message }));
});
process.on('disconnect', () => void stop());
