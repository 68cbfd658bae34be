import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { build } from 'esbuild';

const here = dirname(fileURLToPath(import.meta.url));

/**
 * `@framework/runtime/client` is what a front end imports: it must bundle for the browser (esbuild fails on a Node
 * built-in there) and pull in no AWS SDK.
 */
describe('@framework/runtime/client in a browser bundle', () => {
  it('is exported as the ./client subpath', () => {
    const manifest = JSON.parse(readFileSync(join(here, '..', '..', 'package.json'), 'utf8')) as { exports: Record<string, unknown> };
    expect(manifest.exports['./client']).to.deep.equal({ types: './lib/client/index.d.ts', default: './lib/client/index.js' });
  });

  it('bundles for the browser with no Node built-in and no AWS SDK, under 16 KB minified', async () => {
    const result = await build({
      stdin: { contents: `export * from './src/client/index.ts';`, resolveDir: join(here, '..', '..'), loader: 'ts', sourcefile: 'app.ts' },
      bundle: true,
      minify: true,
      platform: 'browser',
      format: 'esm',
      write: false,
      metafile: true,
      logLevel: 'silent',
    });
    const inputs = Object.keys(result.metafile.inputs);
    expect(inputs.filter((input) => /@aws-sdk|^node:|@framework\/core|packages\/core\//.test(input))).to.deep.equal([]);
    expect(inputs.some((input) => input.includes('partysocket'))).to.equal(true);
    expect(result.outputFiles[0]!.contents.length).to.be.lessThan(16 * 1024);
  });
});
