import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { build } from 'esbuild';

const packageRoot = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

describe('@framework/notify in a function bundle', () => {
  it('reaches the AWS SDK clients and web-push only through import() on first send, so writing the outbox costs no SDK load at cold start', async () => {
    // given a function that imports the package, bundled as @framework/infra does (AWS SDK external)
    const result = await build({
      stdin: { contents: "export * from './src/index.js';", resolveDir: packageRoot, loader: 'ts' },
      bundle: true,
      platform: 'node',
      format: 'esm',
      external: ['@aws-sdk/*', 'web-push', 'mjml', 'nodemailer', 'smtp-server', 'mailparser'],
      write: false,
      metafile: true,
      logLevel: 'silent',
    });
    // then every import of those packages is a dynamic one
    const imports = Object.values(result.metafile.outputs)[0]!.imports.filter((i) => /^(@aws-sdk\/|web-push|mjml|nodemailer|smtp-server|mailparser)/.test(i.path));
    expect(imports.map((i) => i.path)).to.include.members(['@aws-sdk/client-sesv2', '@aws-sdk/client-sns']);
    expect(imports.filter((i) => i.kind !== 'dynamic-import').map((i) => i.path)).to.deep.equal([]);
  });
});
