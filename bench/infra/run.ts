/**
 * 1. `fw synth` of the example (a fresh process, as a user runs it: module loading, bundling, handler scopes, cdk-nag,
 *    the assembly written) against the anchor, a one-Lambda CDK app (App, Stack, one NodejsFunction) synthesized by
 *    a fresh process in the same run; medians of interleaved runs. Target: at most 1.0x. As a user synthesizes again
 *    (bundles and handler scopes kept in `.fw/bundle-cache` by the warm-up run), then cold (that folder removed).
 * 2. `fw synth` of a generated 300-route app, wall time (target: under 6 s), kept bundles; the first run is cold.
 * 3. With `--per-route` (or sizes as the argument): synthesize-and-bundle time of generated apps (10, 100, 300
 *    routes) in process, @framework/infra against the same routes built with CDK's NodejsFunction per route (one
 *    esbuild process per function) behind an HTTP API, checks off on both sides. Takes minutes.
 *
 *   npx projen bench:infra        (or: npx tsx bench/infra/run.ts [--per-route | 10,100,300])
 *
 * Needs the packages built (`npx tsc -b packages`: the task does it). NodejsFunction prints its own bundling progress
 * on stderr; the figures are the lines on stdout.
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';
import type * as cdkTypes from 'aws-cdk-lib';
import type * as apigwTypes from 'aws-cdk-lib/aws-apigatewayv2';
import type * as integrationTypes from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import type * as lambdaTypes from 'aws-cdk-lib/aws-lambda';
import type * as nodejsTypes from 'aws-cdk-lib/aws-lambda-nodejs';
import { defineApp, type AppDefinition } from '@framework/core';
import { synthesizeApp } from '@framework/infra';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
// aws-cdk-lib is a dependency of @framework/infra (not of the repository root): load that very copy.
const fromInfra = createRequire(path.join(repoRoot, 'packages', 'infra', 'package.json'));
const { App, NestedStack, Stack } = fromInfra('aws-cdk-lib') as typeof cdkTypes;
const apigw = fromInfra('aws-cdk-lib/aws-apigatewayv2') as typeof apigwTypes;
const { HttpLambdaIntegration } = fromInfra('aws-cdk-lib/aws-apigatewayv2-integrations') as typeof integrationTypes;
const lambda = fromInfra('aws-cdk-lib/aws-lambda') as typeof lambdaTypes;
const { NodejsFunction, OutputFormat } = fromInfra('aws-cdk-lib/aws-lambda-nodejs') as typeof nodejsTypes;
const perRoute = process.argv[2] !== undefined;
const sizes = (process.argv[2] && process.argv[2] !== '--per-route' ? process.argv[2] : '10,100,300').split(',').map(Number);
const workDir = path.join(repoRoot, '.bench', 'infra');

/** A project with `routes` route files sharing a small lib, like a real API (the lib is bundled into each). */
function generateProject(routes: number): string {
  const dir = path.join(workDir, `app-${routes}`);
  fs.rmSync(dir, { recursive: true, force: true });
  const write = (file: string, content: string) => {
    fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    fs.writeFileSync(path.join(dir, file), content);
  };
  write('src/lib/items.ts', [
    'export interface Item { id: string; name: string; createdAt: string }',
    'export function validate(body: unknown): Item { const b = body as Partial<Item>; if (typeof b?.name !== "string") throw new Error("name required"); return { id: crypto.randomUUID(), name: b.name, createdAt: new Date().toISOString() }; }',
    'export const page = <T>(items: T[], size = 20) => ({ items: items.slice(0, size), next: items.length > size ? String(size) : undefined });',
  ].join('\n'));
  for (let i = 0; i < routes; i++) {
    write(`src/routes/items${i}/[id]/get.ts`, [
      "import { page, validate } from '../../../lib/items.js';",
      `export const main = Object.assign(async (event: { body?: string }) => page([validate(JSON.parse(event.body ?? '{"name":"x"}'))]), { handlerInfo: { kind: 'http', scopes: [], middleware: [] } });`,
    ].join('\n'));
  }
  return dir;
}

function appOf(dir: string): AppDefinition {
  return defineApp({ rootDir: dir, stage: 'dev', base: { name: 'bench', region: 'us-east-1' }, security: { scopes: {} }, envs: { dev: { preset: 'free' } } });
}

function timeFramework(app: AppDefinition): number {
  const outdir = fs.mkdtempSync(path.join(os.tmpdir(), 'fw-bench-infra-'));
  const started = performance.now();
  // Nothing kept from the previous run (`.fw/bundle-cache`): NodejsFunction bundles every time, so do we here.
  synthesizeApp(app, { outdir, checks: false, bundleOptions: { cache: false } });
  const ms = performance.now() - started;
  fs.rmSync(outdir, { recursive: true, force: true });
  return ms;
}

function timeNodejsFunction(app: AppDefinition): number {
  const outdir = fs.mkdtempSync(path.join(os.tmpdir(), 'fw-bench-cdk-'));
  const started = performance.now();
  const cdkApp = new App({ outdir });
  const stack = new Stack(cdkApp, 'Anchor', { env: { region: app.region } });
  const api = new apigw.HttpApi(stack, 'Api');
  // 60 routes per nested stack (about 300 resources), the way one keeps a plain CDK app under 500 per stack.
  const chunks: cdkTypes.NestedStack[] = [];
  app.routes.forEach((route, i) => {
    const scope = chunks[Math.floor(i / 60)] ?? (chunks[Math.floor(i / 60)] = new NestedStack(stack, `Chunk${Math.floor(i / 60)}`));
    const fn = new NodejsFunction(scope, route.functionName, {
      functionName: route.functionName,
      entry: path.join(app.rootDir, route.file),
      handler: 'main',
      runtime: lambda.Runtime.NODEJS_22_X,
      architecture: lambda.Architecture.ARM_64,
      projectRoot: repoRoot,
      depsLockFilePath: path.join(repoRoot, 'package-lock.json'),
      bundling: { minify: true, sourceMap: true, format: OutputFormat.ESM, target: 'node22', externalModules: ['@aws-sdk/*'], mainFields: ['module', 'main'] },
    });
    new apigw.HttpRoute(scope, `Route-${route.functionName}`, {
      httpApi: api,
      routeKey: apigw.HttpRouteKey.with(route.path, apigw.HttpMethod.GET),
      integration: new HttpLambdaIntegration(`Integration-${route.functionName}`, fn),
    });
  });
  cdkApp.synth();
  const ms = performance.now() - started;
  fs.rmSync(outdir, { recursive: true, force: true });
  return ms;
}

const fwBin = path.join(repoRoot, 'packages', 'cli', 'lib', 'bin', 'fw.js');
const median = (values: number[]) => [...values].sort((x, y) => x - y)[Math.floor(values.length / 2)]!;

/** Wall time of a fresh `node` process running `args` in `cwd`; fails loudly if the process does. */
function timeProcess(args: string[], cwd: string): number {
  const started = performance.now();
  const child = spawnSync(process.execPath, args, { cwd, encoding: 'utf8', env: { ...process.env, AWS_EC2_METADATA_DISABLED: 'true' } });
  const ms = performance.now() - started;
  if (child.status !== 0) throw new Error(`${args.join(' ')} failed in ${cwd}:\n${child.stderr}`);
  return ms;
}

/**
 * `fw synth` of a project folder, in a fresh process, into a temporary assembly folder. `cold`: without what a
 * previous synth kept in `.fw/bundle-cache` (every function bundled and loaded again), as after a clean checkout.
 */
function timeFwSynth(dir: string, extra: string[] = [], cold = false): number {
  if (cold) fs.rmSync(path.join(dir, '.fw', 'bundle-cache'), { recursive: true, force: true });
  const out = fs.mkdtempSync(path.join(os.tmpdir(), 'fw-bench-synth-'));
  try {
    return timeProcess([fwBin, 'synth', '--out', out, ...extra], dir);
  } finally {
    fs.rmSync(out, { recursive: true, force: true });
  }
}

/** The anchor: a CDK app with one NodejsFunction (one small handler), synthesized by a fresh process. */
function oneLambdaApp(): string {
  const dir = path.join(workDir, 'one-lambda');
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'handler.ts'), 'export const main = async (event: { body?: string }) => ({ statusCode: 200, body: event.body ?? "{}" });\n');
  fs.writeFileSync(path.join(dir, 'app.cjs'), [
    `const { createRequire } = require('node:module');`,
    `const fromInfra = createRequire(${JSON.stringify(path.join(repoRoot, 'packages', 'infra', 'package.json'))});`,
    `const { App, Stack } = fromInfra('aws-cdk-lib');`,
    `const lambda = fromInfra('aws-cdk-lib/aws-lambda');`,
    `const { NodejsFunction, OutputFormat } = fromInfra('aws-cdk-lib/aws-lambda-nodejs');`,
    `const app = new App({ outdir: process.argv[2] });`,
    `const stack = new Stack(app, 'OneLambda', { env: { region: 'us-east-1' } });`,
    `new NodejsFunction(stack, 'Fn', { entry: ${JSON.stringify(path.join(dir, 'handler.ts'))}, handler: 'main', runtime: lambda.Runtime.NODEJS_22_X, architecture: lambda.Architecture.ARM_64,`,
    `  projectRoot: ${JSON.stringify(repoRoot)}, depsLockFilePath: ${JSON.stringify(path.join(repoRoot, 'package-lock.json'))},`,
    `  bundling: { minify: true, sourceMap: true, format: OutputFormat.ESM, target: 'node22', externalModules: ['@aws-sdk/*'], mainFields: ['module', 'main'] } });`,
    `app.synth();`,
  ].join('\n'));
  return dir;
}

function timeOneLambda(dir: string): number {
  const out = fs.mkdtempSync(path.join(os.tmpdir(), 'fw-bench-one-lambda-'));
  try {
    return timeProcess([path.join(dir, 'app.cjs'), out], dir);
  } finally {
    fs.rmSync(out, { recursive: true, force: true });
  }
}

/** A generated project `fw synth` can read: the routes of `generateProject` plus a fw.config.ts. */
function fwProject(routes: number): string {
  const dir = generateProject(routes);
  fs.writeFileSync(path.join(dir, 'fw.config.ts'), "import { defineApp } from '@framework/core';\nexport default defineApp({ base: { name: 'bench', region: 'us-east-1' }, security: { scopes: {} }, envs: { dev: { preset: 'free' } } });\n");
  fs.writeFileSync(path.join(dir, 'package.json'), '{ "name": "bench-app", "private": true, "type": "module" }\n');
  return dir;
}

if (!fs.existsSync(fwBin)) throw new Error('Build the packages first: npx tsc -b packages');
const example = path.join(repoRoot, 'examples', 'tasks-api');
const anchorDir = oneLambdaApp();
// Warm-up (not measured): the file system cache and esbuild's binary.
timeFwSynth(example);
timeOneLambda(anchorDir);
const fwRuns: number[] = [];
const anchorRuns: number[] = [];
for (let i = 0; i < 5; i++) {
  fwRuns.push(timeFwSynth(example));
  anchorRuns.push(timeOneLambda(anchorDir));
}
const fwMedian = median(fwRuns);
const anchorMedian = median(anchorRuns);
console.log(`fw synth of the example (cdk-nag on, fresh process, bundles kept from the previous synth): ${(fwMedian / 1000).toFixed(2)}s; one-Lambda CDK app (NodejsFunction, aws-cdk-lib defaults, fresh process): ${(anchorMedian / 1000).toFixed(2)}s; ratio ${(fwMedian / anchorMedian).toFixed(2)}x (target <= 1.0x; medians of 5 interleaved runs)`);
const coldRuns: number[] = [];
const coldAnchorRuns: number[] = [];
for (let i = 0; i < 3; i++) {
  coldRuns.push(timeFwSynth(example, [], true));
  coldAnchorRuns.push(timeOneLambda(anchorDir));
}
console.log(`fw synth of the example, cold (.fw/bundle-cache removed before each run): ${(median(coldRuns) / 1000).toFixed(2)}s; one-Lambda CDK app: ${(median(coldAnchorRuns) / 1000).toFixed(2)}s; ratio ${(median(coldRuns) / median(coldAnchorRuns)).toFixed(2)}x (medians of 3 interleaved runs)`);
const large = fwProject(300);
const largeCold = timeFwSynth(large, [], true);
const largeRuns = [timeFwSynth(large), timeFwSynth(large), timeFwSynth(large)];
console.log(`fw synth of a 300-route app (cdk-nag on, fresh process, bundles kept): ${(median(largeRuns) / 1000).toFixed(2)}s wall (target < 6 s; median of 3); the first, cold: ${(largeCold / 1000).toFixed(2)}s`);
const largeNoChecks = [timeFwSynth(large, ['--no-checks']), timeFwSynth(large, ['--no-checks']), timeFwSynth(large, ['--no-checks'])];
console.log(`fw synth of a 300-route app (--no-checks, fresh process, bundles kept): ${(median(largeNoChecks) / 1000).toFixed(2)}s wall (median of 3)`);
if (!perRoute) {
  fs.rmSync(workDir, { recursive: true, force: true });
  process.exit(0);
}

// Warm-up (not measured): module loading and JIT would otherwise be charged to the first size.
timeFramework(appOf(generateProject(5)));

const results: Array<{ routes: number; framework: number; anchor: number }> = [];
for (const routes of sizes) {
  const app = appOf(generateProject(routes));
  // Median of three: a framework run takes seconds and this machine is shared. The anchor runs once (minutes).
  const framework = [timeFramework(app), timeFramework(app), timeFramework(app)].sort((x, y) => x - y)[1]!;
  const anchor = timeNodejsFunction(app);
  results.push({ routes, framework, anchor });
  console.log(`synth+bundle ${routes} routes: framework ${(framework / 1000).toFixed(2)}s, NodejsFunction ${(anchor / 1000).toFixed(2)}s, ratio ${(anchor / framework).toFixed(1)}x faster`);
}
const first = results[0]!;
for (const r of results.slice(1)) {
  const perRoute = (x: { routes: number; framework: number }) => x.framework / x.routes;
  console.log(`framework growth ${first.routes} -> ${r.routes} routes: time x${(r.framework / first.framework).toFixed(1)} for routes x${(r.routes / first.routes).toFixed(0)} (per-route cost ${(perRoute(r)).toFixed(0)}ms vs ${(perRoute(first)).toFixed(0)}ms)`);
}
fs.rmSync(workDir, { recursive: true, force: true });
