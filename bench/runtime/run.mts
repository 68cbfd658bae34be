/**
 * bench:runtime — per-invocation overhead of a JSON POST route through `handler` (@framework/runtime) against
 * `@middy/core` 6.4 with `@middy/http-json-body-parser` and `@middy/http-error-handler`, same run, same events.
 * Anchor: a bare Lambda function doing the same JSON parse and serialize by hand (the work any version must do).
 * Also prints the bundle size of the minimal route, with the Middy equivalent bundled the same way as a ratio, and the
 * cold init of the example's POST /tasks bundle against a Middy route doing the same work (cold-init.mts).
 *
 * Run: npx projen bench:runtime   (builds packages/runtime and packages/infra first)
 */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';
import { build } from 'esbuild';
import middy from '@middy/core';
import httpErrorHandler from '@middy/http-error-handler';
import httpJsonBodyParser from '@middy/http-json-body-parser';
import { lambdaBundleDefines, referencesOf, routeOptionDefines, serviceBundleDefines } from '@framework/infra';
import { createLogger, handler, NotFound, setRootLogger } from '@framework/runtime';
import { coldInit } from './cold-init.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const ROUNDS = 7;
const ITERATIONS = Number(process.env['BENCH_ITERATIONS'] ?? 50_000);

// Both sides log nothing on the measured paths (Middy's error handler is given `logger: false`, ours a null sink).
setRootLogger(createLogger({ level: 'error', sink: () => undefined }));

const body = JSON.stringify({ title: 'Write the benchmark', priority: 'high', tags: ['bench', 'runtime'], due: '2026-12-01' });
const template: APIGatewayProxyEventV2 = {
  version: '2.0',
  routeKey: 'POST /tasks',
  rawPath: '/tasks',
  rawQueryString: '',
  headers: {
    'content-type': 'application/json',
    'content-length': String(body.length),
    host: 'r3pmxmplak.execute-api.us-east-2.amazonaws.com',
    'x-amzn-trace-id': 'Root=1-5e6722a7-cc56xmpl46db7ae02d4da47e',
  },
  requestContext: {
    accountId: '123456789012',
    apiId: 'r3pmxmplak',
    domainName: 'r3pmxmplak.execute-api.us-east-2.amazonaws.com',
    domainPrefix: 'r3pmxmplak',
    http: { method: 'POST', path: '/tasks', protocol: 'HTTP/1.1', sourceIp: '205.255.255.176', userAgent: 'curl/8.5.0' },
    requestId: 'JKJaXmPLvHcESHA=',
    routeKey: 'POST /tasks',
    stage: '$default',
    time: '10/Mar/2020:05:16:23 +0000',
    timeEpoch: 1583817383220,
  },
  body,
  isBase64Encoded: false,
};
// Middy's body parser replaces event.body, so every call gets a fresh shallow copy (same cost for every contender).
const freshEvent = (): APIGatewayProxyEventV2 => ({ ...template });
const deadline = Date.now() + 3_600_000;
const context = {
  awsRequestId: 'c6af9ac6-7b61-11e6-9a41-93e812345678',
  functionName: 'bench',
  getRemainingTimeInMillis: () => deadline - Date.now(),
} as unknown as Context;

type Fn = (event: APIGatewayProxyEventV2, context: Context) => Promise<unknown>;

const created = (input: Record<string, unknown>) => ({ id: 't-1', ...input });

const contenders: Record<string, { ok: Fn; notFound: Fn }> = {
  'bare Lambda (anchor)': {
    ok: async (event) => ({
      statusCode: 201,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(created(JSON.parse(event.body!) as Record<string, unknown>)),
    }),
    notFound: async () => ({
      statusCode: 404,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ error: { code: 'NOT_FOUND', message: 'No task t-9', requestId: 'JKJaXmPLvHcESHA=' } }),
    }),
  },
  'framework handler': {
    ok: handler(async (input: Record<string, unknown>) => created(input)),
    notFound: handler(async () => {
      throw new NotFound('No task t-9');
    }),
  },
  'middy 6.4 (defaults)': {
    ok: middy()
      .use(httpJsonBodyParser())
      .use(httpErrorHandler({ logger: false }))
      .handler(async (event: { body: Record<string, unknown> }) => ({
        statusCode: 201,
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(created(event.body)),
      })) as unknown as Fn,
    notFound: middy()
      .use(httpJsonBodyParser())
      .use(httpErrorHandler({ logger: false }))
      .handler(async () => {
        throw Object.assign(new Error('No task t-9'), { statusCode: 404, expose: true });
      }) as unknown as Fn,
  },
  'middy 6.4 (timeoutEarly off)': {
    ok: middy({ timeoutEarlyInMillis: 0 })
      .use(httpJsonBodyParser())
      .use(httpErrorHandler({ logger: false }))
      .handler(async (event: { body: Record<string, unknown> }) => ({
        statusCode: 201,
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(created(event.body)),
      })) as unknown as Fn,
    notFound: middy({ timeoutEarlyInMillis: 0 })
      .use(httpJsonBodyParser())
      .use(httpErrorHandler({ logger: false }))
      .handler(async () => {
        throw Object.assign(new Error('No task t-9'), { statusCode: 404, expose: true });
      }) as unknown as Fn,
  },
};

async function check(): Promise<void> {
  for (const [name, c] of Object.entries(contenders)) {
    const ok = (await c.ok(freshEvent(), context)) as { statusCode: number; body: string };
    const nf = (await c.notFound(freshEvent(), context)) as { statusCode: number };
    if (ok.statusCode !== 201 || JSON.parse(ok.body).id !== 't-1' || nf.statusCode !== 404) {
      throw new Error(`${name} does not answer like the others: ${JSON.stringify(ok)} / ${nf.statusCode}`);
    }
  }
}

async function timeOne(fn: Fn, iterations: number): Promise<number> {
  const start = process.hrtime.bigint();
  for (let i = 0; i < iterations; i++) await fn(freshEvent(), context);
  return Number(process.hrtime.bigint() - start) / iterations;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

async function measure(path: 'ok' | 'notFound'): Promise<Record<string, number>> {
  const samples: Record<string, number[]> = {};
  // warm up every contender, then interleave rounds so drift hits all of them alike
  for (const c of Object.values(contenders)) await timeOne(c[path], Math.ceil(ITERATIONS / 5));
  for (let round = 0; round < ROUNDS; round++) {
    for (const [name, c] of Object.entries(contenders)) (samples[name] ??= []).push(await timeOne(c[path], ITERATIONS));
  }
  return Object.fromEntries(Object.entries(samples).map(([name, s]) => [name, median(s)]));
}

/** Bundled as `@framework/infra` bundles a function with this source: its Lambda, service and route-option defines included. */
async function bundleBytes(source: string): Promise<number> {
  const result = await build({
    define: { ...lambdaBundleDefines(), ...serviceBundleDefines(referencesOf(source)), ...routeOptionDefines(source, new Set(['@framework/runtime'])) },
    stdin: { contents: source, resolveDir: here, loader: 'ts' },
    bundle: true,
    minify: true,
    platform: 'node',
    target: 'node20',
    format: 'esm',
    mainFields: ['module', 'main'],
    external: ['@aws-sdk/*'],
    write: false,
    logLevel: 'silent',
  });
  return result.outputFiles[0]!.contents.length;
}

await check();
for (const path of ['ok', 'notFound'] as const) {
  const label = path === 'ok' ? 'POST 201 (JSON in, JSON out)' : 'thrown 404 (error body)';
  const ns = await measure(path);
  const anchor = ns['bare Lambda (anchor)']!;
  const ours = ns['framework handler']!;
  for (const [name, value] of Object.entries(ns)) {
    console.log(`${label} | ${name}: ${value.toFixed(0)} ns/op, overhead over anchor ${(value - anchor).toFixed(0)} ns/op (x${(value / anchor).toFixed(2)} anchor)`);
  }
  for (const middyName of ['middy 6.4 (defaults)', 'middy 6.4 (timeoutEarly off)']) {
    const m = ns[middyName]!;
    console.log(`${label} | framework / ${middyName}: x${(ours / m).toFixed(2)} time, overhead x${((ours - anchor) / (m - anchor)).toFixed(2)}`);
  }
}

const ourBytes = await bundleBytes(`import { handler } from '@framework/runtime'; export const main = handler(async (b) => ({ ok: true, b }));`);
const middyBytes = await bundleBytes(`
  import middy from '@middy/core'; import p from '@middy/http-json-body-parser'; import e from '@middy/http-error-handler';
  export const main = middy().use(p()).use(e()).handler(async (ev) => ({ statusCode: 200, body: JSON.stringify({ ok: true, b: ev.body }) }));`);
console.log(`bundle (esbuild, minified, node, esm, @aws-sdk external) | minimal framework route: ${(ourBytes / 1024).toFixed(1)} KB (x${(ourBytes / middyBytes).toFixed(2)} of middy equivalent ${(middyBytes / 1024).toFixed(1)} KB)`);
await coldInit();
