import * as fs from 'node:fs';
import * as path from 'node:path';
import { expect } from 'chai';
import ts from 'typescript';
import { DEV_PATH_ROOT, DEV_PATHS, devQueueMessagesPath } from '../../src/index.js';
import * as names from '../../src/names.js';

const PACKAGES = path.resolve(__dirname, '../../..');
/** The packages that serve the `/_dev` paths (cli) or call them (runtime, storage). */
const USERS = ['cli', 'runtime', 'storage'];

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(file);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts') ? [file] : [];
  });
}

/** Every string and template literal piece of a file that starts a `/_dev` path (comments are not literals). */
function devPathLiterals(file: string): string[] {
  const source = ts.createSourceFile(file, fs.readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, false);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isStringLiteralLike(node) || ts.isTemplateHead(node) || ts.isTemplateMiddle(node) || ts.isTemplateTail(node)) {
      if (node.text.startsWith(DEV_PATH_ROOT)) found.push(`${path.relative(PACKAGES, file)}: ${JSON.stringify(node.text)}`);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe('the /_dev paths', () => {
  it('are all under /_dev, and importable from @framework/core/names (Lambda code reaches them without io-ts)', () => {
    for (const value of Object.values(DEV_PATHS)) expect(value.startsWith(`${DEV_PATH_ROOT}/`), value).to.equal(true);
    expect(names.DEV_PATHS).to.equal(DEV_PATHS);
    expect(devQueueMessagesPath('email outbox')).to.equal('/_dev/queues/email%20outbox/messages');
  });

  it('are written nowhere else: the dev server, the runtime and the storage engine read them from core', function () {
    // Parses every source file of three packages: slow on a busy machine, not a figure this test checks.
    this.timeout(60_000);
    const literals = USERS.flatMap((name) => sourceFiles(path.join(PACKAGES, name, 'src')).flatMap(devPathLiterals));
    expect(literals).to.deep.equal([]);
  });
});
