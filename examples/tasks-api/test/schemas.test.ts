import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { build } from 'esbuild';
import * as z from '../src/lib/zod.js';
import { newApiKey } from '../src/lib/integration-schemas.js';

const src = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'src');

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? sourceFiles(path.join(dir, e.name)) : e.name.endsWith('.ts') ? [path.join(dir, e.name)] : []));
}

describe('tasks-api schemas (zod/mini)', () => {
  it('no source file imports classic zod: one import of it puts all 444 KB of zod in that route bundle', () => {
    const classic = sourceFiles(src).filter((f) => /from\s+['"]zod['"]/.test(fs.readFileSync(f, 'utf8')));
    expect(classic.map((f) => path.relative(src, f))).to.deep.equal([]);
  });

  it('a route bundle keeps only the zod checks it uses (PUT /tasks/{id}/due: under 40 KB of zod, not 444 KB)', async () => {
    // Bundled as a function is (esm, minified): zod's share read from esbuild's metafile. Importing `z` as one object
    // (`export { z }` from src/lib/zod.ts) would keep all of zod/mini, 420 KB.
    const result = await build({ entryPoints: [path.join(src, 'routes/tasks/[id]/due/put.ts')], bundle: true, write: false, platform: 'node', format: 'esm', minify: true, metafile: true, external: ['@aws-sdk/*', 'pg-native'], outdir: 'out', logLevel: 'silent' });
    const zodBytes = Object.entries(Object.values(result.metafile.outputs)[0]!.inputs).filter(([input]) => input.includes('node_modules/zod/')).reduce((n, [, info]) => n + info.bytesInOutput, 0);
    expect(zodBytes).to.be.greaterThan(0);
    expect(zodBytes).to.be.lessThan(40 * 1024);
  });

  it('gives the English messages zod gives (the locale set once in src/lib/zod.ts)', () => {
    const result = newApiKey.safeParse({ name: ' ', scopes: [], expiresInSeconds: 1.5 });
    expect(result.success).to.equal(false);
    expect(result.error!.issues.map((i) => [i.path.join('.'), i.message])).to.deep.equal([
      ['name', 'Too small: expected string to have >=1 characters'],
      ['scopes', 'Too small: expected array to have >=1 items'],
      ['expiresInSeconds', 'Invalid input: expected int, received number'],
    ]);
  });

  it('keeps the JSON Schema of an integer field (what the OpenAPI document shows)', () => {
    expect(z.toJSONSchema(newApiKey).properties!['expiresInSeconds']).to.deep.equal({ type: 'integer', exclusiveMinimum: 0, maximum: 9007199254740991 });
  });
});
