import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { z } from '../src/lib/zod.js';
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
