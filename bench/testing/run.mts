/**
 * @framework/testing, on the example app (examples/tasks-api, copied to a temporary folder):
 *
 * - per-test reset: `app.resetData()` after a test wrote rows (10 tasks, 10 events), against the anchor, re-running
 *   the migrations on an emptied schema (`DROP SCHEMA public CASCADE`, then @framework/data's `migrate`, what fw dev
 *   runs at start-up); median of ROUNDS each, on PGlite and on the native PostgreSQL on PATH (when there is one);
 * - `startApp` to the first response (`GET /health`), the first app of a run (PGlite: makes the initdb template when
 *   there is none) and the next ones.
 *
 * Target (issue 18): reset median under 50 ms; startApp to first response under 1.5 s. Not a test: nothing asserted.
 *
 * Run: npx projen bench:testing
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Database } from '@framework/data';
import { migrate } from '@framework/data/migrations';
import { startApp, type TestApp, type HttpClient } from '@framework/testing';

const ROUNDS = 30;
const STARTS = 3;
const repo = fileURLToPath(new URL('../../', import.meta.url));

function copyExample(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fw-bench-testing-'));
  fs.chmodSync(dir, 0o755);
  fs.cpSync(path.join(repo, 'examples', 'tasks-api'), dir, { recursive: true, filter: (src) => !/[\\/](node_modules|\.fw)$/.test(src) });
  fs.symlinkSync(path.join(repo, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
  return dir;
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
};

async function dirty(app: TestApp<HttpClient>): Promise<void> {
  const tasks = await app.db().seed<{ id: string }>('tasks', Array.from({ length: 10 }, (_, i) => ({ owner: 'bench', title: `task ${i}`, tenant_id: 'bench' })));
  await app.db().seed('task_events', tasks.map((t) => ({ task_id: t.id, type: 'task.created', tenant_id: 'bench' })));
}

async function remigrate(app: TestApp<HttpClient>, root: string): Promise<void> {
  await app.db().query('DROP SCHEMA public CASCADE; CREATE SCHEMA public');
  const { host, port, database } = app.db().endpoint;
  const db = new Database({ connection: { host, port, database, user: 'postgres', ssl: false }, maxConnections: 1 });
  try {
    await migrate(db, { dir: path.join(root, 'migrations') });
  } finally {
    await db.end();
  }
}

async function benchEngine(kind: 'embedded' | 'native'): Promise<void> {
  const label = kind === 'embedded' ? 'PGlite' : 'native PostgreSQL';
  const root = copyExample();
  try {
    const starts: number[] = [];
    let app: TestApp<HttpClient> | undefined;
    for (let i = 0; i < STARTS; i++) {
      const started = performance.now();
      app = await startApp({ root, engines: { databases: kind } });
      const health = await app.anonymous.get('/health');
      starts.push(performance.now() - started);
      if (health.status !== 200) throw new Error(`GET /health answered ${health.status}`);
      if (i < STARTS - 1) await app.stop();
    }
    console.log(`startApp to first response (${label}): first ${starts[0]!.toFixed(0)} ms, then median ${median(starts.slice(1)).toFixed(0)} ms of ${STARTS - 1} (target < 1500 ms)`);
    const resets: number[] = [];
    const migrations: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      // Alternating, so that a burst of load on the machine hits both sides alike.
      await dirty(app!);
      let t = performance.now();
      await app!.resetData();
      resets.push(performance.now() - t);
      await dirty(app!);
      t = performance.now();
      await remigrate(app!, root);
      migrations.push(performance.now() - t);
    }
    // The anchor left the schema as the migrations make it, which is what the snapshot holds: reset once more to check.
    await app!.resetData();
    const reset = median(resets);
    const migration = median(migrations);
    console.log(`per-test reset (${label}): resetData median ${reset.toFixed(1)} ms vs re-running the migrations ${migration.toFixed(1)} ms, x${(migration / reset).toFixed(1)} faster (median of ${ROUNDS}; target < 50 ms)`);
    await app!.stop();
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
}

await benchEngine('embedded');
if (process.env.PATH?.split(path.delimiter).some((dir) => fs.existsSync(path.join(dir, 'postgres')))) await benchEngine('native');
else console.log('per-test reset (native PostgreSQL): skipped, no postgres on PATH');
