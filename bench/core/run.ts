/**
 * defineApp on a generated project (200 routes, 50 functions, 20 queues, 20 crons) against an anchor measured in the
 * same run: a bare recursive listing of the same tree (the file-system work any discovery must do). The ratio is
 * what validation, discovery rules and naming cost on top of reading the folders. forStage is measured too (no
 * file-system work: names and sizes for another stage).
 *
 * Run: npx projen bench:core
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { defineApp, type AppOptions } from '@framework/core';

const ROUTES = 200;
const FUNCTIONS = 50;
const QUEUES = 20;
const CRONS = 20;
const ITERATIONS = 40;

function write(root: string, file: string): void {
  fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
  fs.writeFileSync(path.join(root, file), 'export const main = () => undefined;\n');
}

function median(samples: number[]): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

function time(fn: () => unknown): number {
  const samples: number[] = [];
  for (let i = 0; i < ITERATIONS; i++) {
    const start = process.hrtime.bigint();
    fn();
    samples.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  return median(samples);
}

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'fw-bench-core-'));
try {
  const methods = ['get', 'post', 'put', 'patch', 'delete'];
  for (let i = 0; i < ROUTES; i++) write(root, `src/routes/resource${Math.floor(i / 10)}/${i % 2 ? '[id]/' : ''}sub${Math.floor(i / 5) % 2}/${methods[i % 5]}.ts`);
  for (let i = 0; i < FUNCTIONS; i++) write(root, `src/functions/group${i % 5}/job${i}.ts`);
  for (let i = 0; i < QUEUES; i++) write(root, `src/queues/queue${i}.ts`);
  for (let i = 0; i < CRONS; i++) write(root, `src/crons/cron${i}.ts`);

  const options: AppOptions = {
    rootDir: root,
    stage: 'dev',
    base: { name: 'bench', region: 'eu-west-1' },
    security: { scopes: { 'a:read': 'Read' }, appClients: { web: { scopes: ['a:read'], flows: ['authorization_code'] } } },
    envs: { dev: { preset: 'free' }, prod: { preset: 'large', overrides: { functions: { memorySize: 3008 } } } },
    infrastructure: {
      queues: Array.from({ length: QUEUES }, (_, i) => ({ id: `queue${i}`, batchSize: 5 })),
      schedules: Array.from({ length: CRONS }, (_, i) => ({ id: `cron${i}`, schedule: { cron: `${i} 3 * * ? *` } })),
      databases: [{ id: 'main' }],
      storage: [{ id: 'uploads' }],
    },
  };

  const app = defineApp(options);
  const units = app.units.length;
  // Anchor: list the same four folders recursively, nothing else.
  const anchor = time(() => {
    for (const dir of ['src/routes', 'src/functions', 'src/queues', 'src/crons']) fs.readdirSync(path.join(root, dir), { recursive: true, withFileTypes: true });
  });
  const define = time(() => defineApp(options));
  const forStage = time(() => app.forStage('prod'));

  console.log(`anchor: recursive listing of the tree (${units} handler files): ${anchor.toFixed(3)} ms (1.00x)`);
  console.log(`defineApp (validate + discover + name ${units} units): ${define.toFixed(3)} ms (${(define / anchor).toFixed(2)}x anchor)`);
  console.log(`forStage('prod') (names and sizes for another stage): ${forStage.toFixed(3)} ms (${(forStage / anchor).toFixed(2)}x anchor)`);
} finally {
  fs.rmSync(root, { recursive: true, force: true });
}
