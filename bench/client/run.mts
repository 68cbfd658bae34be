/**
 * The generated HTTP client on a 300-route app (60 resources, 5 routes each, zod schemas on body, query and response
 * like the example's), written to a temporary folder:
 *
 * - generation: `fw gen client` as a user runs it (a Node process: config load, discovery, writing), anchored on the
 *   same CLI doing no work (`fw --version`), and the generator alone in process. Target: under 2 s.
 * - IDE-side cost: `tsc --noEmit` on the app without the client, with it, and with it plus a file calling every route
 *   once. Target: with the client under 1.5x without.
 *
 * Run: npx projen bench:client (or `tsx bench/client/run.mts`, packages built)
 */
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { discoverRoutes } from '@framework/core';
import { renderClient } from '../../packages/cli/src/client-gen/index.js';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const FW = path.join(REPO, 'packages', 'cli', 'lib', 'bin', 'fw.js');
const TSC = path.join(REPO, 'node_modules', 'typescript', 'bin', 'tsc');
const RESOURCES = 60;
const RUNS = Number(process.env.BENCH_RUNS ?? 3);

function write(root: string, file: string, text: string): void {
  fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
  fs.writeFileSync(path.join(root, file), text);
}

function median(samples: number[]): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

function timed(fn: () => void): number {
  const start = process.hrtime.bigint();
  fn();
  return Number(process.hrtime.bigint() - start) / 1e6;
}

/** One resource: its schemas, and list, create, read, update, delete routes. */
function writeResource(root: string, n: number): void {
  const name = `res${n}`;
  write(root, `src/lib/${name}.ts`, `import { z } from 'zod';
export const new${n} = z.object({ title: z.string().min(1), size${n}: z.number().int().optional(), tags: z.array(z.string()).optional() });
export const changes${n} = new${n}.partial().extend({ state: z.enum(['a', 'b', 'c']).optional() });
export const filter${n} = z.object({ state: z.enum(['a', 'b', 'c']).optional(), q: z.string().optional() });
export const item${n} = z.object({ id: z.string(), title: z.string(), size${n}: z.number(), state: z.enum(['a', 'b', 'c']), tags: z.array(z.string()) });
`);
  const lib = `../../lib/${name}.js`;
  write(root, `src/routes/${name}/get.ts`, `import { handler } from '@framework/runtime';
import { filter${n} } from '${lib}';
export const main = handler({ scopes: ['r:read'], query: filter${n}, fn: async (_body, ctx) => ({ items: [] as { id: string; state: string }[], q: ctx.input.query.q }) });
`);
  write(root, `src/routes/${name}/post.ts`, `import { handler } from '@framework/runtime';
import { item${n}, new${n} } from '${lib}';
export const main = handler({ scopes: ['r:write'], body: new${n}, response: item${n}, fn: async (body) => ({ id: '1', title: body.title, size${n}: body.size${n} ?? 0, state: 'a' as const, tags: body.tags ?? [] }) });
`);
  const libDeep = `../../../lib/${name}.js`;
  write(root, `src/routes/${name}/[id]/get.ts`, `import { handler } from '@framework/runtime';
import { item${n} } from '${libDeep}';
export const main = handler({ scopes: ['r:read'], response: item${n}, fn: async (_body, ctx) => ({ id: ctx.pathParams.id!, title: 't', size${n}: 1, state: 'b' as const, tags: [] }) });
`);
  write(root, `src/routes/${name}/[id]/put.ts`, `import { handler } from '@framework/runtime';
import { changes${n}, item${n} } from '${libDeep}';
export const main = handler({ scopes: ['r:write'], body: changes${n}, response: item${n}, fn: async (body, ctx) => ({ id: ctx.pathParams.id!, title: body.title ?? 't', size${n}: body.size${n} ?? 1, state: body.state ?? 'a', tags: body.tags ?? [] }) });
`);
  write(root, `src/routes/${name}/[id]/delete.ts`, `import { handler } from '@framework/runtime';
export const main = handler(async () => undefined, { scopes: ['r:write'] });
`);
}

/** A file calling every route once, as a front end or the tests would. */
function usage(): string {
  const lines = [`import { createClient } from './client.gen.js';`, `const client = createClient({ baseUrl: 'http://127.0.0.1:3000', token: 'x' });`, `export async function useAll(): Promise<unknown[]> {`, `  return [`];
  for (let n = 0; n < RESOURCES; n++) {
    lines.push(
      `    (await client.res${n}.get({ query: { state: 'a' } })).items,`,
      `    (await client.res${n}.post({ title: 'x', size${n}: 1 })).size${n},`,
      `    (await client.res${n}.byId('1').get()).title,`,
      `    (await client.res${n}.byId('1').put({ state: 'b' })).state,`,
      `    await client.res${n}.byId('1').delete(),`,
    );
  }
  lines.push('  ];', '}', '');
  return lines.join('\n');
}

/** `tsc --noEmit` on the project: wall time and the checker's own figures. */
function tsc(root: string): { wallMs: number; checkS: number; types: number } {
  let out = '';
  const wallMs = timed(() => {
    out = execFileSync(process.execPath, [TSC, '--noEmit', '--extendedDiagnostics', '-p', root], { encoding: 'utf8' });
  });
  const figure = (label: string) => Number(new RegExp(`^${label}:\\s+([\\d.]+)`, 'm').exec(out)?.[1] ?? NaN);
  return { wallMs, checkS: figure('Check time'), types: figure('Types') };
}

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'fw-bench-client-'));
try {
  write(root, 'package.json', JSON.stringify({ name: 'bench-client', private: true, type: 'module' }));
  write(root, 'tsconfig.json', fs.readFileSync(path.join(REPO, 'examples', 'tasks-api', 'tsconfig.json'), 'utf8').replace('"node", "mocha"', '"node"'));
  write(root, 'fw.config.ts', `import { defineApp } from '@framework/core';
export default defineApp({
  base: { name: 'bench-client', region: 'eu-west-1' },
  security: { scopes: { 'r:read': 'Read', 'r:write': 'Write' } },
  envs: { dev: { preset: 'free' } },
  routesDir: 'src/routes',
  infrastructure: {},
});
`);
  fs.symlinkSync(path.join(REPO, 'node_modules'), path.join(root, 'node_modules'), 'dir');
  for (let n = 0; n < RESOURCES; n++) writeResource(root, n);
  const routes = discoverRoutes(root, 'src/routes').routes;
  console.log(`app: ${routes.length} routes in ${root}`);

  // Generation
  const clientFile = path.join(root, 'src', 'client.gen.ts');
  const anchor: number[] = [];
  const cli: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    anchor.push(timed(() => execFileSync(process.execPath, [FW, '--version'], { cwd: root })));
    fs.rmSync(clientFile, { force: true });
    cli.push(timed(() => execFileSync(process.execPath, [FW, 'gen', 'client'], { cwd: root })));
  }
  const inProcess: number[] = [];
  for (let i = 0; i < 50; i++) inProcess.push(timed(() => renderClient(discoverRoutes(root, 'src/routes').routes, 'src')));
  const client = fs.readFileSync(clientFile, 'utf8');
  console.log(`fw gen client, ${routes.length} routes: ${median(cli).toFixed(0)} ms median of ${RUNS} (target < 2000 ms); fw --version (process start, the anchor): ${median(anchor).toFixed(0)} ms; difference ${(median(cli) - median(anchor)).toFixed(0)} ms`);
  console.log(`discovery + renderClient in process: ${median(inProcess).toFixed(2)} ms median of 50; client file ${(client.length / 1024).toFixed(1)} KB, ${client.split('\n').length} lines`);

  // Type-checking: without the client, with it, with it and a file calling every route (alternated, median of RUNS)
  const aside = path.join(root, 'client.gen.ts.aside');
  const usageFile = path.join(root, 'src', 'use-client.ts');
  const results: Record<'without' | 'with' | 'used', ReturnType<typeof tsc>[]> = { without: [], with: [], used: [] };
  for (let i = 0; i < RUNS; i++) {
    fs.renameSync(clientFile, aside);
    results.without.push(tsc(root));
    fs.renameSync(aside, clientFile);
    results.with.push(tsc(root));
    fs.writeFileSync(usageFile, usage());
    results.used.push(tsc(root));
    fs.rmSync(usageFile);
  }
  const wall = (k: keyof typeof results) => median(results[k].map((r) => r.wallMs));
  const check = (k: keyof typeof results) => median(results[k].map((r) => r.checkS));
  for (const k of ['without', 'with', 'used'] as const) {
    console.log(`tsc --noEmit, app ${k === 'without' ? 'without the client' : k === 'with' ? 'with the client' : 'with the client and a file calling all 300 routes'}: ${wall(k).toFixed(0)} ms wall, check ${check(k).toFixed(2)} s, ${results[k][0]!.types} types (median of ${RUNS})`);
  }
  console.log(`ratio with/without the client: wall ${(wall('with') / wall('without')).toFixed(2)}x, check ${(check('with') / check('without')).toFixed(2)}x (target < 1.5x)`);
  console.log(`ratio with the client and every route called / without: wall ${(wall('used') / wall('without')).toFixed(2)}x, check ${(check('used') / check('without')).toFixed(2)}x`);
} finally {
  fs.rmSync(root, { recursive: true, force: true });
}
