/**
 * Cold init of the example's POST /tasks bundle (built by @framework/infra exactly as deployed: one esbuild build,
 * the SDK clients it uses preloaded) against a Middy 6.4 route doing the same work with the usual libraries (JSON body
 * parser, error handler, Powertools idempotency on DynamoDB, `pg`, an SQS client), bundled with the same esbuild
 * settings. Each sample is a fresh Node process that times `await import(bundle)`, with Lambda's
 * `AWS_LAMBDA_FUNCTION_NAME` set (so both load their SDK clients during init); Node's own start-up is the same for
 * both and left out. Also prints both bundles' sizes and the biggest inputs of ours, from esbuild's metafile.
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import type { AppDefinition } from '@framework/core';
import { bundleApp, needsOf, preloadSdkClients, referencesOf, sdkClientsToPreload, serviceBundleDefines } from '@framework/infra';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const workDir = path.join(repoRoot, '.bench', 'runtime');
const example = path.join(repoRoot, 'examples', 'tasks-api');
const SAMPLES = Number(process.env['BENCH_COLD_SAMPLES'] ?? 15);

const MIDDY_ROUTE = `
import middy from '@middy/core';
import httpErrorHandler from '@middy/http-error-handler';
import httpJsonBodyParser from '@middy/http-json-body-parser';
import { makeHandlerIdempotent } from '@aws-lambda-powertools/idempotency/middleware';
import { DynamoDBPersistenceLayer } from '@aws-lambda-powertools/idempotency/dynamodb';
import { SQSClient, SendMessageCommand } from '@aws-sdk/client-sqs';
import pg from 'pg';

const pool = new pg.Pool();
const sqs = new SQSClient({});
const persistenceStore = new DynamoDBPersistenceLayer({ tableName: process.env.IDEMPOTENCY_TABLE ?? 'idempotency' });

export const main = middy()
  .use(httpJsonBodyParser())
  .use(makeHandlerIdempotent({ persistenceStore }))
  .use(httpErrorHandler())
  .handler(async (event) => {
    const { rows } = await pool.query('insert into tasks (title) values ($1) returning *', [event.body.title]);
    await sqs.send(new SendMessageCommand({ QueueUrl: process.env.QUEUE_URL, MessageBody: JSON.stringify({ type: 'task.created', taskId: rows[0].id }) }));
    return { statusCode: 201, body: JSON.stringify(rows[0]) };
  });
`;

/** The same route without the SDK-backed parts (no idempotency, no queue): what Middy and pg alone cost at init. */
const MIDDY_LEAN_ROUTE = `
import middy from '@middy/core';
import httpErrorHandler from '@middy/http-error-handler';
import httpJsonBodyParser from '@middy/http-json-body-parser';
import pg from 'pg';

const pool = new pg.Pool();
export const main = middy()
  .use(httpJsonBodyParser())
  .use(httpErrorHandler())
  .handler(async (event) => {
    const { rows } = await pool.query('insert into tasks (title) values ($1) returning *', [event.body.title]);
    return { statusCode: 201, body: JSON.stringify(rows[0]) };
  });
`;

async function loadExample(): Promise<AppDefinition> {
  process.env['FW_PROJECT_ROOT'] = example;
  process.env['FW_STAGE'] = 'dev';
  return ((await import(pathToFileURL(path.join(example, 'fw.config.ts')).href)) as { default: AppDefinition }).default;
}

/** Median ms of `await import(file)` in fresh processes, interleaved across the contenders. */
function timeImports(files: Record<string, string>, env: Record<string, string>): Record<string, number> {
  const samples: Record<string, number[]> = {};
  for (let i = 0; i < SAMPLES; i++) {
    for (const [name, file] of Object.entries(files)) {
      // The figure on a line of its own, read from the last line: a module may log at load (the pro packages report
      // a missing license key on stdout, as Lambda's log does).
      const script = `const t = performance.now(); await import(${JSON.stringify(pathToFileURL(file).href)}); process.stdout.write('\\n' + String(performance.now() - t));`;
      const child = spawnSync(process.execPath, ['--input-type=module', '-e', script], { cwd: path.dirname(file), encoding: 'utf8', env: { PATH: process.env['PATH'] ?? '', ...env } });
      if (child.status !== 0) throw new Error(`${name} failed to load: ${child.stderr}`);
      const ms = Number(child.stdout.trim().split('\n').at(-1));
      if (!Number.isFinite(ms)) throw new Error(`${name}: no timing on the last line of its output:\n${child.stdout.slice(-500)}`);
      (samples[name] ??= []).push(ms);
    }
  }
  return Object.fromEntries(Object.entries(samples).map(([name, s]) => [name, [...s].sort((a, b) => a - b)[Math.floor(s.length / 2)]!]));
}

export async function coldInit(): Promise<void> {
  fs.rmSync(workDir, { recursive: true, force: true });
  fs.mkdirSync(workDir, { recursive: true });
  const app = await loadExample();
  const bundle = bundleApp(app, { outDir: path.join(workDir, 'framework') });
  const unit = app.routes.find((r) => r.method === 'POST' && r.path === '/tasks')!;
  const ours = bundle.functions.get(unit.functionName)!;
  preloadSdkClients(ours, sdkClientsToPreload(ours, needsOf(ours.packages, true, referencesOf(ours.projectCode, ours.projectPackages))));

  const bundleMiddy = async (name: string, source: string) => {
    const file = path.join(workDir, name, 'index.mjs');
    fs.mkdirSync(path.dirname(file), { recursive: true });
    const result = await build({
      stdin: { contents: source, resolveDir: repoRoot, loader: 'js' },
      outfile: file,
      bundle: true,
      platform: 'node',
      target: 'node22',
      format: 'esm',
      mainFields: ['module', 'main'],
      banner: { js: "import { createRequire as __fwCreateRequire } from 'node:module'; const require = __fwCreateRequire(import.meta.url);" },
      minify: true,
      legalComments: 'none',
      external: ['@aws-sdk/*', 'pg-native'],
      metafile: true,
      logLevel: 'silent',
    });
    return { file, bytes: Object.values(result.metafile.outputs)[0]!.bytes };
  };
  const middy = await bundleMiddy('middy', MIDDY_ROUTE);
  const lean = await bundleMiddy('middy-lean', MIDDY_LEAN_ROUTE);
  const middyFile = middy.file;
  const ourBytes = fs.statSync(ours.entryFile).size;
  const middyBytes = middy.bytes;
  const env = { AWS_REGION: 'us-east-1', AWS_LAMBDA_FUNCTION_NAME: 'bench', FW_PROJECT: app.project, FW_STAGE: app.stage, FW_REGION: app.region };
  const lambda = timeImports({ framework: ours.entryFile, middy: middyFile }, env);
  console.log(`cold init (fresh process, await import, Lambda env, SDK clients loaded at init on both sides) | example POST /tasks: ${lambda['framework']!.toFixed(1)} ms, Middy 6.4 + Powertools idempotency + pg + SQS: ${lambda['middy']!.toFixed(1)} ms, ratio ${(lambda['framework']! / lambda['middy']!).toFixed(2)}x (target <= 2x; medians of ${SAMPLES})`);
  const { AWS_LAMBDA_FUNCTION_NAME: _, ...outside } = env;
  const plain = timeImports({ framework: ours.entryFile, lean: lean.file }, outside);
  console.log(`cold init without the SDK (outside Lambda: our preload off) | example POST /tasks: ${plain['framework']!.toFixed(1)} ms, Middy 6.4 + body parser + error handler + pg (no idempotency, no queue): ${plain['lean']!.toFixed(1)} ms, ratio ${(plain['framework']! / plain['lean']!).toFixed(2)}x (medians of ${SAMPLES})`);

  // esbuild's metafile of the app build is not kept by bundleApp: rebuild POST /tasks alone, with the service defines
  // bundleApp gives it (what it leaves out stays out of the list), to list its inputs.
  const define = serviceBundleDefines(referencesOf(ours.projectCode, ours.projectPackages));
  const meta = await build({ entryPoints: [path.join(example, unit.file)], absWorkingDir: example, define, bundle: true, write: false, platform: 'node', target: 'node22', format: 'esm', mainFields: ['module', 'main'], minify: true, legalComments: 'none', external: ['@aws-sdk/*', 'pg-native'], metafile: true, logLevel: 'silent', outdir: path.join(workDir, 'meta') });
  const byPackage = new Map<string, number>();
  for (const [input, info] of Object.entries(Object.values(meta.metafile.outputs)[0]!.inputs)) {
    const m = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(input) ?? /packages\/([^/]+)\//.exec(input);
    const key = m ? m[1]! : 'project';
    byPackage.set(key, (byPackage.get(key) ?? 0) + info.bytesInOutput);
  }
  const top = [...byPackage].sort((a, b) => b[1] - a[1]).slice(0, 6).map(([k, v]) => `${k} ${(v / 1024).toFixed(1)} KB`).join(', ');
  console.log(`bundle (esbuild metafile) | example POST /tasks: ${(ourBytes / 1024).toFixed(1)} KB (largest: ${top}); Middy equivalent: ${(middyBytes / 1024).toFixed(1)} KB`);
  fs.rmSync(workDir, { recursive: true, force: true });
}
