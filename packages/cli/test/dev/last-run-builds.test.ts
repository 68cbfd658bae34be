import { expect } from 'chai';
import type { FunctionUnit } from '@framework/core';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { loadAppWithInputs } from '../../src/app-loader/index.js';
import type { DevLogger } from '../../src/dev/engines/engine.js';
import { FunctionHost } from '../../src/dev/functions/function-host.js';
import { BUILD_MANIFEST, HandlerBundler } from '../../src/dev/functions/handler-bundler.js';
import { smallProject } from './small-project.js';

const log: DevLogger = { info: () => undefined, warn: () => undefined, error: () => undefined };
const route = (id: string, file: string): FunctionUnit => ({ kind: 'route', id, file, functionName: `reuse-${id.replace(/[^a-z0-9]+/gi, '-')}`, memorySize: 128, timeout: 5, environment: {} });
const answer = (text: string) => `export const main = async () => ${JSON.stringify(text)};\n`;

/** Dates every file under `dir` (node_modules aside) 10 s back: saved before the run, out of the clock tick where a stamp cannot tell. */
function backdate(dir: string): void {
  const past = new Date(Date.now() - 10_000);
  for (const entry of fs.readdirSync(dir, { recursive: true, withFileTypes: true })) {
    const file = path.join(entry.parentPath, entry.name);
    if (entry.isFile() && !file.includes('node_modules')) fs.utimesSync(file, past, past);
  }
}

describe("fw dev start: the previous run's builds of unchanged files", function () {
  let rootDir: string;
  let host: FunctionHost | undefined;
  const units = [route('GET /a', 'src/routes/a/get.ts'), route('GET /b', 'src/routes/b/get.ts')];
  const buildDir = () => path.join(rootDir, '.fw', 'dev', 'build');
  const bundleOf = (unit: FunctionUnit) => path.join(buildDir(), unit.file.replace(/\.ts$/, '.mjs'));
  /** One run of fw dev's function host: its start-up build (reusing the last run's), then the given invocations. */
  async function run(invoke: readonly FunctionUnit[]): Promise<unknown[]> {
    host = new FunctionHost(new HandlerBundler(rootDir, buildDir()), () => ({ TZ: 'UTC' }), () => ({ TZ: 'UTC' }), log);
    await host.rebuild(units, { reuseLastRun: true });
    const values = [];
    for (const unit of invoke) {
      const outcome = await host.invoke(unit, {});
      values.push(outcome.ok ? outcome.value : `${outcome.errorType}: ${outcome.errorMessage}`);
    }
    await host.stop();
    host = undefined;
    return values;
  }

  beforeEach(() => {
    rootDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fw-reuse-test-'));
    for (const unit of units) {
      fs.mkdirSync(path.dirname(path.join(rootDir, unit.file)), { recursive: true });
      fs.writeFileSync(path.join(rootDir, unit.file), answer(`${unit.id} v1`));
    }
    fs.writeFileSync(path.join(rootDir, 'tsconfig.json'), '{}\n');
    backdate(rootDir);
  });

  afterEach(async () => {
    await host?.stop();
    host = undefined;
    fs.rmSync(rootDir, { recursive: true, force: true });
  });

  it('serves the bundles of unchanged files without compiling them again, and compiles a file edited in between', async () => {
    // Given a first run that compiled both handlers
    expect(await run(units)).to.deep.equal(['GET /a v1', 'GET /b v1']);
    expect(fs.existsSync(path.join(buildDir(), BUILD_MANIFEST))).to.equal(true);
    // The manifest names the project's files relative to it: nothing under .fw names a path of this machine
    const manifest = fs.readFileSync(path.join(buildDir(), BUILD_MANIFEST), 'utf8');
    expect(manifest).to.not.contain(rootDir);
    expect(manifest).to.contain('src/routes/a/get.ts');
    const before = units.map((u) => fs.statSync(bundleOf(u)).mtimeMs);
    // When one handler is edited between runs, then the next run starts
    fs.writeFileSync(path.join(rootDir, units[1]!.file), answer('GET /b v2'));
    backdate(path.join(rootDir, 'src', 'routes', 'b'));
    // Then the edited one answers with its new code, the other with the kept bundle, not written again
    expect(await run(units)).to.deep.equal(['GET /a v1', 'GET /b v2']);
    expect(fs.statSync(bundleOf(units[0]!)).mtimeMs).to.equal(before[0]);
    expect(fs.statSync(bundleOf(units[1]!)).mtimeMs).to.not.equal(before[1]);
  });

  it('compiles everything again when tsconfig.json changed, when a bundle is gone, or when the manifest is unreadable', async () => {
    expect(await run(units)).to.deep.equal(['GET /a v1', 'GET /b v1']);
    // A project setting esbuild reads: every handler compiles again
    const first = units.map((u) => fs.statSync(bundleOf(u)).mtimeMs);
    fs.writeFileSync(path.join(rootDir, 'tsconfig.json'), '{ "compilerOptions": {} }\n');
    const past = new Date(Date.now() - 10_000);
    fs.utimesSync(path.join(rootDir, 'tsconfig.json'), past, past);
    expect(await run(units)).to.deep.equal(['GET /a v1', 'GET /b v1']);
    const second = units.map((u) => fs.statSync(bundleOf(u)).mtimeMs);
    expect(second[0]).to.not.equal(first[0]);
    expect(second[1]).to.not.equal(first[1]);
    // A bundle removed from the build folder is compiled again
    fs.rmSync(bundleOf(units[0]!));
    expect(await run(units)).to.deep.equal(['GET /a v1', 'GET /b v1']);
    // A manifest that does not parse is ignored
    fs.writeFileSync(path.join(buildDir(), BUILD_MANIFEST), '{ not json');
    const third = units.map((u) => fs.statSync(bundleOf(u)).mtimeMs);
    expect(await run(units)).to.deep.equal(['GET /a v1', 'GET /b v1']);
    expect(fs.statSync(bundleOf(units[1]!)).mtimeMs).to.not.equal(third[1]);
  });

  it("starts its first thread importing the packages the most of the last run's handlers import, and no other", async () => {
    // Given two packages that note each import of them: one both handlers import, one only the second
    const marked = (name: string) => {
      const dir = path.join(rootDir, 'node_modules', name);
      fs.mkdirSync(dir, { recursive: true });
      fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name, type: 'module', main: 'index.js' }));
      fs.writeFileSync(path.join(dir, 'index.js'), "import * as fs from 'node:fs';\nfs.appendFileSync(new URL('./imports', import.meta.url), 'x');\nexport const value = 1;\n");
      return path.join(dir, 'imports');
    };
    const shared = marked('shared-package');
    const rare = marked('rare-package');
    fs.writeFileSync(path.join(rootDir, units[0]!.file), "import { value } from 'shared-package';\nexport const main = async () => value;\n");
    fs.writeFileSync(path.join(rootDir, units[1]!.file), "import { value } from 'shared-package';\nimport { value as other } from 'rare-package';\nexport const main = async () => value + other;\n");
    backdate(rootDir);
    // And a first run that compiled both (its threads imported both packages)
    expect(await run(units)).to.deep.equal([1, 2]);
    fs.rmSync(shared);
    fs.rmSync(rare);
    // When the next run starts, before any request
    host = new FunctionHost(new HandlerBundler(rootDir, buildDir()), () => ({ TZ: 'UTC' }), () => ({ TZ: 'UTC' }), log);
    await host.rebuild(units, { reuseLastRun: true });
    // Then its first thread imports the package both handlers import, and not the other one
    for (let waited = 0; !fs.existsSync(shared) && waited < 30_000; waited += 50) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(fs.existsSync(shared)).to.equal(true);
    expect(fs.existsSync(rare)).to.equal(false);
    // And the first request's handler answers from that thread
    expect(await host.invoke(units[0]!, {})).to.deep.equal({ ok: true, value: 1 });
  });

  it('does not keep a build of a file saved within the last clock tick (the next run compiles it)', async () => {
    fs.writeFileSync(path.join(rootDir, units[0]!.file), answer('GET /a fresh'));
    expect(await run(units)).to.deep.equal(['GET /a fresh', 'GET /b v1']);
    const manifest = JSON.parse(fs.readFileSync(path.join(buildDir(), BUILD_MANIFEST), 'utf8')) as { files: Record<string, unknown> };
    expect(Object.keys(manifest.files)).to.deep.equal([units[1]!.file]);
  });
});

describe("loading fw.config.ts: the previous load's compile of unchanged files", function () {
  let dir: string;
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('reuses the kept compile while its inputs are unchanged, and compiles an edited config', async () => {
    dir = smallProject({ 'config/name.ts': "export const NAME = 'kept-one';\n" });
    fs.writeFileSync(path.join(dir, 'fw.config.ts'), fs.readFileSync(path.join(dir, 'fw.config.ts'), 'utf8').replace("import { defineApp } from '@framework/core';", "import { defineApp } from '@framework/core';\nimport { NAME } from './config/name.js';").replace("name: 'small'", 'name: NAME'));
    backdate(dir);
    const first = await loadAppWithInputs(dir, 'dev');
    expect(first.app.project).to.equal('kept-one');
    const kept = path.join(dir, '.fw', 'dev', 'config', 'last-config.mjs');
    const keptAt = fs.statSync(kept).mtimeMs;
    // What it was compiled from is kept relative to the project: no path of this machine under .fw
    const keptInputs = fs.readFileSync(path.join(dir, '.fw', 'dev', 'config', 'last-config.json'), 'utf8');
    expect(keptInputs).to.not.contain(dir);
    expect(keptInputs).to.contain('config/name.ts');
    // Unchanged: the kept compile is loaded (not written again), with the same inputs
    const second = await loadAppWithInputs(dir, 'dev');
    expect(second.app.project).to.equal('kept-one');
    expect([...second.inputs].sort()).to.deep.equal([...first.inputs].sort());
    expect(fs.statSync(kept).mtimeMs).to.equal(keptAt);
    // A file the config imports, edited: compiled again, the new value loaded
    fs.writeFileSync(path.join(dir, 'config', 'name.ts'), "export const NAME = 'edited-one';\n");
    expect((await loadAppWithInputs(dir, 'dev')).app.project).to.equal('edited-one');
    // Saved within the last clock tick: not kept (the next load compiles again and still sees the edit)
    expect(fs.existsSync(path.join(dir, '.fw', 'dev', 'config', 'last-config.json'))).to.equal(false);
    expect((await loadAppWithInputs(dir, 'dev')).app.project).to.equal('edited-one');
  });
});
