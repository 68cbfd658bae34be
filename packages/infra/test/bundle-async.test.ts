import * as fs from 'node:fs';
import * as path from 'node:path';
import { expect } from 'chai';
import { defineApp } from '@framework/core';
import { bundleApp, bundleAppAsync, bundleAssetHash, readHandlerInfo, readHandlerInfoAsync, type AppBundle } from '../src/index.js';
import { SMALL_APP, routeSource, tempProject } from './helpers/temp-project.js';

/** Every file of every function folder, by path relative to the bundle's folder, with its bytes. */
function filesOf(bundle: AppBundle): Map<string, string> {
  const files = new Map<string, string>();
  for (const fn of bundle.functions.values()) {
    for (const name of fs.readdirSync(fn.directory).sort()) files.set(path.relative(bundle.outDir, path.join(fn.directory, name)), fs.readFileSync(path.join(fn.directory, name), 'utf8'));
  }
  return files;
}

// Three functions in two esbuild builds: `a` and `b` declare route options, `c` is a plain route (another define).
const FILES = {
  'src/lib/shared.ts': 'export const shared = () => 1;\n',
  'src/routes/a/get.ts': "import { shared } from '../../lib/shared.js';\n" + routeSource(['items:read'], 'shared()'),
  'src/routes/b/get.ts': routeSource(),
  'src/routes/c/get.ts': 'export const main = async () => ({ plain: true });\n',
};

describe('bundleAppAsync and readHandlerInfoAsync (fw synth: the builds at once, the bundles read by several processes)', () => {
  it('give the same bundles (bytes, asset hashes, packages, project code) and the same declared scopes as bundleApp and readHandlerInfo', async function () {
    this.timeout(180_000);
    const project = tempProject(FILES);
    try {
      const app = defineApp({ ...SMALL_APP, rootDir: project.dir });
      const inProcess = bundleApp(app, { cache: false });
      const expectedFiles = filesOf(inProcess);
      const expectedHashes = [...inProcess.functions].map(([name, fn]) => [name, bundleAssetHash(fn.directory), [...fn.packages], fn.projectCode]);
      const expectedInfo = readHandlerInfo(app, inProcess, { cache: false });

      const atOnce = await bundleAppAsync(app, { cache: false });
      expect([...atOnce.functions.keys()]).to.deep.equal([...inProcess.functions.keys()]);
      expect(filesOf(atOnce)).to.deep.equal(expectedFiles);
      expect([...atOnce.functions].map(([name, fn]) => [name, bundleAssetHash(fn.directory), [...fn.packages], fn.projectCode])).to.deep.equal(expectedHashes);
      const info = await readHandlerInfoAsync(app, atOnce, { cache: false });
      expect([...info]).to.deep.equal([...expectedInfo]);
      expect(info.get('shop-dev-route-get-a')?.scopes).to.deep.equal(['items:read']);

      // The kept builds of one are the kept builds of the other: the async build reuses what the sync one kept.
      bundleApp(app);
      const marked = path.join(project.dir, '.fw', 'bundle-cache');
      for (const entry of fs.readdirSync(marked, { recursive: true, withFileTypes: true }) as fs.Dirent[]) {
        if (!entry.isFile() || entry.name !== 'index.mjs') continue;
        const file = path.join(entry.parentPath ?? entry.path, entry.name);
        const content = fs.readFileSync(file, 'utf8');
        fs.rmSync(file);
        fs.writeFileSync(file, `${content}\n// kept copy\n`);
      }
      const reused = await bundleAppAsync(app);
      for (const fn of reused.functions.values()) expect(fs.readFileSync(fn.entryFile, 'utf8'), fn.unit.file).to.include('// kept copy');
    } finally {
      project.remove();
    }
  });

  it('report the same errors: a file esbuild cannot build, a module that throws at load, a missing main', async function () {
    this.timeout(180_000);
    const failing = async (files: Record<string, string>, read: boolean) => {
      const project = tempProject(files);
      try {
        const app = defineApp({ ...SMALL_APP, rootDir: project.dir });
        const bundle = await bundleAppAsync(app, { cache: false });
        if (read) await readHandlerInfoAsync(app, bundle, { cache: false });
        return undefined;
      } catch (error) {
        return error as Error & { code?: string };
      } finally {
        project.remove();
      }
    };
    // Not found by the first (packages external) build of the project's own code: by the build of the bundles.
    const unresolved = await failing({ ...FILES, 'src/routes/b/get.ts': "import 'fw-no-such-package';\n" + routeSource() }, false);
    expect(unresolved?.code).to.equal('FW_ERR_INFRA_BUNDLE');
    expect(unresolved?.message).to.match(/src\/routes\/b\/get\.ts:1: .*fw-no-such-package/);

    const throwing = await failing({ ...FILES, 'src/routes/b/get.ts': "throw new Error('needs the cloud at load');\n" + routeSource() }, true);
    expect(throwing?.code).to.equal('FW_ERR_INFRA_HANDLER_LOAD');
    expect(throwing?.message).to.match(/src\/routes\/b\/get\.ts threw while being loaded.*needs the cloud at load/);

    const noMain = await failing({ ...FILES, 'src/routes/c/get.ts': 'export const handler = async () => ({});\n' }, true);
    expect(noMain?.code).to.equal('FW_ERR_INFRA_HANDLER_EXPORT');
    expect(noMain?.message).to.match(/src\/routes\/c\/get\.ts does not export a function named "main"/);
  });
});
