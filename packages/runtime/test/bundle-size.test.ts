import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { build } from 'esbuild';

const here = dirname(fileURLToPath(import.meta.url));

/** Bundles a route the way the infra package does (esbuild, minified, Node, ESM, AWS SDK external). */
async function bundleRoute(source: string) {
  const result = await build({
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
  return { bytes: result.outputFiles[0]!.contents.length, inputs, imports: output.imports };
}

describe('bundle size', () => {
  it('a route that uses only handler bundles to at most 20 KB, without io-ts and without loading the AWS SDK up front', async () => {
    // given the smallest useful route
    const route = `
      import { handler } from '../src/index.js';
      export const main = handler(async (body: { title: string }) => ({ id: '1', title: body.title }));
    `;
    // when it is bundled
    const { bytes, inputs, imports } = await bundleRoute(route);
    // then
    expect(bytes).to.be.at.most(20 * 1024);
    expect(inputs.some((i) => i.includes('io-ts') || i.includes('fp-ts'))).to.equal(false);
    expect(inputs.some((i) => /core[\\/](lib|src)[\\/]index\./.test(i))).to.equal(false);
    // the SDK clients are only reached through dynamic import(), on first use
    const sdk = imports.filter((i) => i.path.startsWith('@aws-sdk/'));
    expect(sdk.every((i) => i.kind === 'dynamic-import')).to.equal(true);
  });

  it('leaves task-only code (AsyncLocalStorage, retries) out of an HTTP route', async () => {
    const { inputs } = await bundleRoute(`import { handler } from '../src/index.js'; export const main = handler(() => 'ok');`);
    expect(inputs.some((i) => i.includes('task-handler'))).to.equal(false);
    expect(inputs.some((i) => i.includes('idempotency'))).to.equal(false);
  });
});
