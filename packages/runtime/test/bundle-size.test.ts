import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { expect } from 'chai';
import { build } from 'esbuild';
import { LAMBDA_BUNDLE_DEFINE, PLAIN_ROUTE_DEFINE, SERVICE_CLIENT_OMIT_DEFINES } from '../src/index.js';
import { jsonPost } from './fixtures/events.js';

const here = dirname(fileURLToPath(import.meta.url));

/**
 * Bundles a route the way the infra package does (esbuild, minified, Node, ESM, AWS SDK external), with the defines
 * infra gives a function whose code names no queue, function or WebSocket (`serviceBundleDefines`): the bundle that
 * is deployed.
 */
async function bundleRoute(source: string, options: { allClients?: boolean; plain?: boolean; lambda?: boolean } = {}) {
  const omitAll = Object.fromEntries(Object.values(SERVICE_CLIENT_OMIT_DEFINES).map((expression) => [expression, 'true']));
  const result = await build({
    define: { ...(options.allClients ? {} : omitAll), ...(options.plain ? { [PLAIN_ROUTE_DEFINE]: 'true' } : {}), ...(options.lambda ? { [LAMBDA_BUNDLE_DEFINE]: 'true' } : {}) },
    stdin: { contents: source, resolveDir: here, loader: 'ts', sourcefile: 'route.ts' },
    bundle: true,
    minify: true,
    platform: 'node',
    target: 'node20',
    format: 'esm',
    mainFields: ['module', 'main'],
    // The Lambda Node.js runtime ships AWS SDK v3; the infra package keeps it external by default.
    external: ['@aws-sdk/*'],
    write: false,
    metafile: true,
    logLevel: 'silent',
  });
  const output = Object.values(result.metafile.outputs)[0]!;
  // modules that contributed code to the output (tree-shaken ones are listed with 0 bytes)
  const inputs = Object.entries(output.inputs).filter(([, i]) => i.bytesInOutput > 0).map(([path]) => path);
  return { bytes: result.outputFiles[0]!.contents.length, inputs, imports: output.imports, code: result.outputFiles[0]!.text };
}

describe('bundle size', () => {
  it('a route that uses only handler bundles to at most 17 KB as deployed (32 KB with every service client), without io-ts and without loading the AWS SDK up front', async () => {
    // given the smallest useful route
    const route = `
      import { handler } from '../src/index.js';
      export const main = handler(async (body: { title: string }) => ({ id: '1', title: body.title }));
    `;
    // when it is bundled
    const { bytes, inputs, imports } = await bundleRoute(route);
    // then
    // 16.1 KB measured with the tenant scope and the API-key hook; core's ENV table (about 0.9 KB, every package's
    // variable names in one object esbuild cannot shake) is the next thing to split (issue 27's target is 8 KB).
    expect(bytes).to.be.at.most(17 * 1024);
    // A route without options (`routeOptionDefines`): 8.4 KB measured (9.1 KB before the context's fields were
    // declared only, the error answers shared one path and the content-type checks became patterns).
    expect((await bundleRoute(route, { plain: true })).bytes).to.be.at.most(8.6 * 1024);
    // ... as infra bundles it for Lambda (`lambdaBundleDefines`: no stand-in context): 7.9 KB measured, issue 27's
    // target is 8 KB. What remains: the request context 1.5 KB, the logger 1.4 KB, the service object 1.0 KB.
    expect((await bundleRoute(route, { plain: true, lambda: true })).bytes).to.be.at.most(8 * 1024);
    // Every client includes service.ws with its connection registry (DynamoDB, dev server and in-memory backends,
    // about 7.5 KB) and the dev server's saga store: 31.2 KB measured.
    expect((await bundleRoute(route, { allClients: true })).bytes).to.be.at.most(32 * 1024);
    expect(inputs.some((i) => i.includes('io-ts') || i.includes('fp-ts'))).to.equal(false);
    expect(inputs.some((i) => /core[\\/](lib|src)[\\/]index\./.test(i))).to.equal(false);
    // the SDK clients are only reached through dynamic import(), on first use
    const sdk = imports.filter((i) => i.path.startsWith('@aws-sdk/'));
    expect(sdk.every((i) => i.kind === 'dynamic-import')).to.equal(true);
  });

  it('runs as a bundle: the minified module loads in Node and answers a gateway event', async () => {
    // given the bundled minimal route written to a temporary folder
    const { code } = await bundleRoute(`
      import { handler } from '../src/index.js';
      export const main = handler(async (body: { title: string }) => ({ id: '1', title: body.title }));
    `);
    const dir = await mkdtemp(join(tmpdir(), 'fw-runtime-bundle-'));
    try {
      const file = join(dir, 'index.mjs');
      await writeFile(file, code);
      // when Lambda would load and call it
      const mod = (await import(pathToFileURL(file).href)) as { main: (event: unknown) => Promise<{ statusCode: number; body: string }> };
      const result = await mod.main(jsonPost({ title: 'bundled' }));
      // then
      expect(result.statusCode).to.equal(201);
      expect(JSON.parse(result.body)).to.deep.equal({ id: '1', title: 'bundled' });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('leaves task-only code (AsyncLocalStorage, retries) out of an HTTP route', async () => {
    const { inputs } = await bundleRoute(`import { handler } from '../src/index.js'; export const main = handler(() => 'ok');`);
    expect(inputs.some((i) => i.includes('task-handler'))).to.equal(false);
    expect(inputs.some((i) => i.includes('idempotency'))).to.equal(false);
  });
});
