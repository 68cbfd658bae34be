/**
 * Per-query overhead of `service.db` (the sql tag, statement checks, error mapping, pool) against raw `pg` on the same
 * server in the same run: a primary-key lookup and a one-row insert, run one at a time as a handler would. Blocks of
 * both alternate so drift on a shared machine hits both. The figure is the median of the ratios of adjacent blocks (goal: within 10%).
 *
 * Run: npx projen bench:data   (native PostgreSQL when installed, else PGlite)
 */
import { databaseEnv } from '@framework/core/names';
import { closeDatabases, sql } from '@framework/data';
import { getService } from '@framework/runtime';
import pg from 'pg';
import { startNative, startPglite, type BenchServer } from './server.js';

const ROUNDS = 60;
const PER_BLOCK = 200;

function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] as number;
}

async function block(fn: (i: number) => Promise<unknown>): Promise<number> {
  const start = process.hrtime.bigint();
  for (let i = 0; i < PER_BLOCK; i++) await fn(i);
  return Number(process.hrtime.bigint() - start) / 1000 / PER_BLOCK;
}

async function main(): Promise<void> {
  const server: BenchServer = (await startNative().catch(() => undefined)) ?? (await startPglite());
  const vars = databaseEnv('main');
  Object.assign(process.env, { [vars.host]: '127.0.0.1', [vars.port]: String(server.port), [vars.name]: 'postgres', [vars.secretArn]: 'local' });
  // Same pool size for both sides; one query at a time uses one connection either way.
  const raw = new pg.Pool({ host: '127.0.0.1', port: server.port, database: 'postgres', user: 'postgres', max: 10, idleTimeoutMillis: 60_000, connectionTimeoutMillis: 10_000, allowExitOnIdle: true });
  const db = getService().db;
  try {
    await raw.query('CREATE TABLE bench_tasks (id serial PRIMARY KEY, owner text NOT NULL, title text NOT NULL)');
    await raw.query("INSERT INTO bench_tasks (owner, title) SELECT 'o' || (g % 10), 't' || g FROM generate_series(1, 1000) g");

    const cases = [
      {
        name: 'select by primary key',
        raw: (i: number) => raw.query('SELECT id, owner, title FROM bench_tasks WHERE id = $1', [(i % 1000) + 1]).then((r) => r.rows[0]),
        fw: (i: number) => db.one(sql`SELECT id, owner, title FROM bench_tasks WHERE id = ${(i % 1000) + 1}`),
      },
      {
        name: 'insert one row',
        raw: (i: number) => raw.query('INSERT INTO bench_tasks (owner, title) VALUES ($1, $2) RETURNING id', ['bench', `r${i}`]).then((r) => r.rows[0]),
        fw: (i: number) => db.one(sql`INSERT INTO bench_tasks (owner, title) VALUES (${'bench'}, ${`f${i}`}) RETURNING id`),
      },
    ];
    console.log(`server: ${server.label}; ${ROUNDS} rounds x ${PER_BLOCK} sequential queries per side`);
    for (const c of cases) {
      // warm-up: connections open, statements planned, JIT settled
      await block(c.raw);
      await block(c.fw);
      const rawTimes: number[] = [];
      const fwTimes: number[] = [];
      for (let r = 0; r < ROUNDS; r++) {
        if (r % 2 === 0) {
          rawTimes.push(await block(c.raw));
          fwTimes.push(await block(c.fw));
        } else {
          fwTimes.push(await block(c.fw));
          rawTimes.push(await block(c.raw));
        }
      }
      const a = median(rawTimes);
      const b = median(fwTimes);
      // Adjacent blocks see the same machine load: the median of their ratios is steadier than a ratio of medians.
      const paired = median(fwTimes.map((t, i) => t / (rawTimes[i] as number)));
      // The fastest block of each side is the one least disturbed by other work on the machine.
      const best = Math.min(...fwTimes) / Math.min(...rawTimes);
      console.log(`${c.name}: raw pg ${a.toFixed(1)} µs/query (anchor), service.db ${b.toFixed(1)} µs/query, ratio ${paired.toFixed(3)} (median of paired blocks), ${best.toFixed(3)} (fastest blocks)`);
    }
  } finally {
    await raw.end();
    await closeDatabases();
    await server.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
