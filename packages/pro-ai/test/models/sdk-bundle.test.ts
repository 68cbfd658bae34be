import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { build } from 'esbuild';

const here = path.dirname(fileURLToPath(import.meta.url));

describe('the ai SDK in a function bundle', function () {
  this.timeout(120_000);

  it('keeps only the SDK parts the package calls (ai-sdk-parts.ts): under 200 KB of `ai`, not the whole namespace (250 KB)', async () => {
    // given a function that calls a model, bundled as @framework/infra bundles functions (esm, minified)
    const source = "import { createModel } from '../../src/index.js'; export const main = () => createModel({ provider: 'mock' }).generate({ prompt: 'x' });";
    const result = await build({ stdin: { contents: source, resolveDir: here, loader: 'ts' }, bundle: true, write: false, platform: 'node', format: 'esm', minify: true, metafile: true, mainFields: ['module', 'main'], external: ['@aws-sdk/*', 'pg-native'], logLevel: 'silent' });
    // then the ai package's share (esbuild's metafile) is what generateText, streamText and the rest use
    const aiBytes = Object.entries(Object.values(result.metafile.outputs)[0]!.inputs).filter(([input]) => /node_modules\/ai\//.test(input)).reduce((n, [, info]) => n + info.bytesInOutput, 0);
    expect(aiBytes).to.be.greaterThan(50 * 1024);
    expect(aiBytes).to.be.lessThan(200 * 1024);
  });
});
