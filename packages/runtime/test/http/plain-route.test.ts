import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { expect } from 'chai';
import { build } from 'esbuild';
import { LAMBDA_BUNDLE_DEFINE, PLAIN_ROUTE_DEFINE, SERVICE_CLIENT_OMIT_DEFINES } from '../../src/index.js';
import { httpEvent, jsonPost, lambdaContext } from '../fixtures/events.js';

const here = dirname(fileURLToPath(import.meta.url));

type Main = ((event: unknown, context?: unknown) => Promise<{ statusCode: number; headers?: Record<string, string>; body: string }>) & { handlerInfo: unknown };

/**
 * Bundles `source` as @framework/infra does, with or without the plain-route define (and the Lambda define infra gives
 * every function: `lambda`), loads it and returns its exports.
 */
async function load(source: string, plain: boolean, lambda = false): Promise<{ main: Main; bytes: number; code: string }> {
  const define: Record<string, string> = Object.fromEntries(Object.values(SERVICE_CLIENT_OMIT_DEFINES).map((expression) => [expression, 'true']));
  if (plain) define[PLAIN_ROUTE_DEFINE] = 'true';
  if (lambda) define[LAMBDA_BUNDLE_DEFINE] = 'true';
  const result = await build({ define, stdin: { contents: source, resolveDir: here, loader: 'ts', sourcefile: 'route.ts' }, bundle: true, minify: true, platform: 'node', target: 'node20', format: 'esm', mainFields: ['module', 'main'], external: ['@aws-sdk/*'], write: false, logLevel: 'silent' });
  const code = result.outputFiles[0]!.text;
  const dir = await mkdtemp(join(tmpdir(), 'fw-plain-route-'));
  try {
    const file = join(dir, 'index.mjs');
    await writeFile(file, code);
    const mod = (await import(pathToFileURL(file).href)) as { main: Main };
    return { main: mod.main, bytes: code.length, code };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

const ROUTE = `
  import { handler, NotFound, response } from '../../src/index.js';
  export const main = handler(async (body: { title?: string; missing?: boolean; explicit?: boolean; crash?: boolean } | undefined, ctx) => {
    if (body?.missing) throw new NotFound('No task t-9');
    if (body?.explicit) return response({ statusCode: 202, body: { queued: body.title }, cookies: ['a=1'] });
    if (body?.crash) throw new Error('boom');
    return body === undefined ? undefined : { id: '1', title: body.title, method: ctx.method, requestId: ctx.requestId, q: ctx.query['q'] ?? null };
  });
`;

describe('plain route (PLAIN_ROUTE_DEFINE): a route without options bundled without their code', () => {
  let plain: Awaited<ReturnType<typeof load>>;
  let full: Awaited<ReturnType<typeof load>>;
  let deployed: Awaited<ReturnType<typeof load>>;
  before(async function () {
    this.timeout(60_000);
    [plain, full, deployed] = await Promise.all([load(ROUTE, true), load(ROUTE, false), load(ROUTE, true, true)]);
  });

  it('answers every request exactly as the full handler does: 201, 204, explicit response, thrown 404, 500, invalid JSON, base64 body', async () => {
    const events = [
      jsonPost({ title: 'a' }),
      httpEvent({ method: 'POST', path: '/tasks', rawQueryString: 'q=1', queryStringParameters: { q: '1' }, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ title: 'q' }) }),
      httpEvent({ method: 'DELETE', path: '/tasks/1' }),
      jsonPost({ title: 'later', explicit: true }),
      jsonPost({ missing: true }),
      jsonPost({ crash: true }),
      httpEvent({ method: 'POST', path: '/tasks', headers: { 'content-type': 'application/json' }, body: '{"title": ' }),
      httpEvent({ method: 'POST', path: '/tasks', headers: { 'content-type': 'application/json' }, body: Buffer.from('{"title":"b64"}').toString('base64'), isBase64Encoded: true }),
    ];
    const statuses: number[] = [];
    // The 500 logs its error on standard output (each bundle has its own logger): kept off the test's output.
    const write = process.stdout.write;
    const lines: string[] = [];
    process.stdout.write = ((chunk: string) => lines.push(String(chunk)) > 0) as typeof process.stdout.write;
    try {
      for (const event of events) {
        const [a, b, c] = [await plain.main(event, lambdaContext()), await full.main(event, lambdaContext()), await deployed.main(event, lambdaContext())];
        expect(a).to.deep.equal(b);
        expect(c).to.deep.equal(b);
        statuses.push(a.statusCode);
      }
    } finally {
      process.stdout.write = write;
    }
    expect(lines.filter((line) => line.includes('"Unhandled error"'))).to.have.length(3);
    expect(statuses).to.deep.equal([201, 201, 204, 202, 404, 500, 400, 201]);
    // and without a Lambda context (a test calling the bundle directly)
    expect(await plain.main(jsonPost({ title: 'x' }))).to.deep.equal(await full.main(jsonPost({ title: 'x' })));
    expect(plain.main.handlerInfo).to.deep.equal(full.main.handlerInfo);
  });

  it('as deployed (LAMBDA_BUNDLE_DEFINE) takes the context and request id Lambda passes, and carries no stand-in context', async () => {
    // given the route as infra bundles it for Lambda, and an event without a request id of its own
    const event = jsonPost({ title: 'ctx' });
    delete (event as { requestContext?: { requestId?: string } }).requestContext!.requestId;
    // when Lambda calls it with its context
    const result = await deployed.main(event, lambdaContext());
    // then the request id is Lambda's, as without the define
    expect(JSON.parse(result.body).requestId).to.equal(JSON.parse((await full.main(event, lambdaContext())).body).requestId);
    expect(JSON.parse(result.body).requestId).to.equal((lambdaContext() as { awsRequestId: string }).awsRequestId);
    // and the code only a call without a context needs is not in the bundle (it is in the bundle without the define)
    expect(deployed.code).not.to.include('stand-in Lambda context');
    expect(plain.code).to.include('stand-in Lambda context');
    expect(deployed.bytes).to.be.below(plain.bytes);
  });

  it('leaves the schema checks, the scope check and the middleware runner out of the bundle', () => {
    for (const marker of ['VALIDATION_FAILED', 'INSUFFICIENT_SCOPE', 'FW_ERR_API_KEY_VERIFIER_MISSING', 'cognito:groups']) {
      expect(plain.code, marker).to.not.include(marker);
      expect(full.code, marker).to.include(marker);
    }
    expect(plain.bytes).to.be.below(full.bytes - 4 * 1024);
  });

  it('fails when the module loads, with FW_ERR_ROUTE_OPTIONS_LEFT_OUT, if the definition declares options anyway', async () => {
    const source = `
      import { handler } from '../../src/index.js';
      const fromAPackage = { ['sco' + 'pes']: ['tasks:read'] } as unknown as { scopes: ['tasks:read'] };
      export const main = handler({ ...fromAPackage, fn: async () => 'ok' });
    `;
    let error: { code?: string; message?: string } | undefined;
    try {
      await load(source, true);
    } catch (caught) {
      error = caught as { code?: string; message?: string };
    }
    expect(error?.code).to.equal('FW_ERR_ROUTE_OPTIONS_LEFT_OUT');
    expect(error?.message).to.include('declares scopes');
    // empty lists are no options: such a route is plain
    const empty = await load(`import { handler } from '../../src/index.js'; export const main = handler({ scopes: [], middleware: [], fn: async () => 'ok' });`, true);
    expect((await empty.main(httpEvent(), lambdaContext())).statusCode).to.equal(200);
  });
});
