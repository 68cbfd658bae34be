import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import Module from 'node:module';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { expect } from 'chai';

const here = path.dirname(fileURLToPath(import.meta.url));
const compileCache = pathToFileURL(path.resolve(here, '..', '..', 'src', 'cloud', 'compile-cache.ts')).href;
/** Node.js 22.1 and later cache compiled code themselves: the store file is then Node's, not ours. */
const builtIn = typeof (Module as unknown as { enableCompileCache?: unknown }).enableCompileCache === 'function';

/**
 * Runs, in a fresh process (the cache replaces the module loader's compile step for the whole process), a script that
 * turns the cache on for `project` and then requires its package `dep`; returns what the script printed.
 */
function runWithCache(project: string): { stdout: string; stderr: string; status: number | null } {
  const script = [
    `import { enableCompileCache } from ${JSON.stringify(compileCache)};`,
    `import { createRequire } from 'node:module';`,
    `enableCompileCache(${JSON.stringify(project)});`,
    `const dep = createRequire(${JSON.stringify(path.join(project, 'package.json'))})('dep');`,
    `console.log(JSON.stringify({ value: dep.value, helper: dep.helper(), dirname: dep.dirname, resolved: dep.resolved, loaded: await dep.loadLater() }));`,
  ].join('\n');
  const child = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: path.resolve(here, '..', '..'), encoding: 'utf8' });
  return { stdout: child.stdout, stderr: child.stderr, status: child.status };
}

function writePackage(project: string, value: string): void {
  const dir = path.join(project, 'node_modules', 'dep');
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'package.json'), '{ "name": "dep", "version": "1.0.0", "main": "index.js" }\n');
  fs.writeFileSync(path.join(dir, 'helper.js'), 'exports.twice = (x) => x + x;\n');
  fs.writeFileSync(path.join(dir, 'later.mjs'), 'export const later = "later";\n');
  fs.writeFileSync(path.join(dir, 'index.js'), [
    `exports.value = ${JSON.stringify(value)};`,
    `const { twice } = require('./helper');`,
    `exports.helper = () => twice(exports.value);`,
    `exports.dirname = __dirname;`,
    `exports.resolved = require.resolve('./helper');`,
    `exports.loadLater = require('./load-later').loadLater;`,
  ].join('\n'));
  // A file calling import() (which the cache leaves to Node.js's own compile step).
  fs.writeFileSync(path.join(dir, 'load-later.js'), "exports.loadLater = async () => (await import('./later.mjs')).later;\n");
}

describe('compile cache of the cloud commands', () => {
  let project: string;
  beforeEach(() => {
    project = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'fw-compile-cache-')));
    fs.writeFileSync(path.join(project, 'package.json'), '{ "name": "app", "private": true }\n');
  });
  afterEach(() => fs.rmSync(project, { recursive: true, force: true }));

  it('runs package code the same with the kept code as without, and keeps it under .fw/compile-cache', function () {
    this.timeout(120_000);
    // Given a package of CommonJS files (require, __dirname, require.resolve, one calling import())
    writePackage(project, 'abc');
    const expected = { value: 'abc', helper: 'abcabc', dirname: path.join(project, 'node_modules', 'dep'), resolved: path.join(project, 'node_modules', 'dep', 'helper.js'), loaded: 'later' };
    // When a command loads it twice (the second time from the kept code)
    const first = runWithCache(project);
    const file = path.join(project, '.fw', 'compile-cache', `node-${process.version}-${process.arch}`, 'store.bin');
    const written = builtIn ? undefined : fs.readFileSync(file);
    const second = runWithCache(project);
    // Then both runs give what the package computes
    expect(first.status, first.stderr).to.equal(0);
    expect(JSON.parse(first.stdout)).to.deep.equal(expected);
    expect(second.status, second.stderr).to.equal(0);
    expect(JSON.parse(second.stdout)).to.deep.equal(expected);
    const store = path.join(project, '.fw', 'compile-cache');
    expect(fs.existsSync(store)).to.equal(true);
    if (!builtIn) {
      // The second run found every file's code kept, so it had nothing to add and left the store as it was.
      expect(written!.length).to.be.greaterThan(0);
      expect(fs.readFileSync(file).equals(written!)).to.equal(true);
    }
  });

  it('never runs the kept code of a file whose text changed, even at the same length', function () {
    this.timeout(120_000);
    // Given a package loaded once (its code kept)
    writePackage(project, 'abc');
    expect(JSON.parse(runWithCache(project).stdout).value).to.equal('abc');
    // When its file changes to other text of the same length
    writePackage(project, 'xyz');
    const after = runWithCache(project);
    // Then the new text runs
    expect(after.status, after.stderr).to.equal(0);
    expect(JSON.parse(after.stdout)).to.include({ value: 'xyz', helper: 'xyzxyz' });
  });

  it('a damaged store only costs time: the package runs, and the store is written again', function () {
    this.timeout(120_000);
    writePackage(project, 'abc');
    runWithCache(project);
    if (!builtIn) {
      const file = path.join(project, '.fw', 'compile-cache', `node-${process.version}-${process.arch}`, 'store.bin');
      fs.writeFileSync(file, Buffer.from([255, 255, 255, 255, 1, 2, 3]));
    }
    const after = runWithCache(project);
    expect(after.status, after.stderr).to.equal(0);
    expect(JSON.parse(after.stdout).helper).to.equal('abcabc');
    if (!builtIn) expect(fs.statSync(path.join(project, '.fw', 'compile-cache', `node-${process.version}-${process.arch}`, 'store.bin')).size).to.be.greaterThan(7);
  });
});
