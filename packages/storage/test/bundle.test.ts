import { expect } from 'chai';
import * as esbuild from 'esbuild';
import { fileURLToPath } from 'node:url';

/**
 * What a function's bundle gets when it imports the package, bundled as the deployed functions are (ESM, `module`
 * before `main`, the AWS SDK external as in the Lambda runtime).
 */
async function bundle(contents: string): Promise<string> {
  const result = await esbuild.build({
    stdin: { contents, resolveDir: fileURLToPath(new URL('.', import.meta.url)), loader: 'ts' },
    bundle: true,
    format: 'esm',
    platform: 'node',
    mainFields: ['module', 'main'],
    external: ['@aws-sdk/*'],
    write: false,
    logLevel: 'silent',
  });
  return result.outputFiles[0]!.text;
}

describe('a Lambda bundle that uses @framework/storage', () => {
  it('keeps the registration of service.storage, even for a bare import', async () => {
    for (const source of [`import '@framework/storage';`, `import { objectKeyProblem } from '@framework/storage'; export const f = objectKeyProblem;`]) {
      expect(await bundle(source), source).to.match(/registerServiceExtension\("storage"/);
    }
  });

  it('leaves out the local engine (busboy, the file store) and loads the AWS SDK only on use', async () => {
    const text = await bundle(`import { createBucketClient } from '@framework/storage'; export const c = createBucketClient;`);
    expect(text).to.not.match(/busboy|LocalObjectStore/);
    expect(text).to.match(/import\("@aws-sdk\/client-s3"\)/);
  });
});
