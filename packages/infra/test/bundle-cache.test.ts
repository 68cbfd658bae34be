import * as fs from 'node:fs';
import * as path from 'node:path';
import { expect } from 'chai';
import { defineApp } from '@framework/core';
import { bundleApp, bundleAssetHash, readHandlerInfo } from '../src/index.js';
import { SMALL_APP, routeSource, tempProject } from './helpers/temp-project.js';

/** A line appended to every kept copy of `index.mjs`: seen in a bundle only when bundleApp reused the kept output. */
const MARK = '\n// kept copy\n';

/** Replaces (a new file: the kept copies may be hard links to a bundle) each kept `index.mjs` with a marked one. */
function markKeptOutputs(projectDir: string): number {
  const root = path.join(projectDir, '.fw', 'bundle-cache');
  let marked = 0;
  for (const entry of fs.readdirSync(root, { recursive: true, withFileTypes: true }) as fs.Dirent[]) {
    if (!entry.isFile() || entry.name !== 'index.mjs') continue;
    const file = path.join(entry.parentPath ?? entry.path, entry.name);
    const content = fs.readFileSync(file, 'utf8');
    fs.rmSync(file);
    fs.writeFileSync(file, content + MARK);
    marked++;
  }
  return marked;
}

describe('bundleApp reuses a build whose options and inputs did not change (.fw/bundle-cache)', () => {
  it('places the kept output when nothing changed, and builds again when an input, a folder holding one or an option changed', function () {
    this.timeout(120_000);
    const project = tempProject({
      'src/lib/shared.ts': 'export const shared = () => 1;\n',
      'src/routes/a/get.ts': "import { shared } from '../../lib/shared.js';\n" + routeSource([], 'shared()'),
      'src/routes/b/get.ts': routeSource(),
    });
    try {
      const app = defineApp({ ...SMALL_APP, rootDir: project.dir });
      const entry = (bundle: ReturnType<typeof bundleApp>, name: string) => fs.readFileSync(bundle.functions.get(name)!.entryFile, 'utf8');
      const first = bundleApp(app);
      const hashes = new Map([...first.functions].map(([name, fn]) => [name, bundleAssetHash(fn.directory)]));
      const packages = new Map([...first.functions].map(([name, fn]) => [name, [...fn.packages]]));

      // Unchanged: the same bytes (the same asset hashes) and the same metafile facts, without a build.
      const again = bundleApp(app);
      for (const [name, fn] of again.functions) {
        expect(bundleAssetHash(fn.directory), name).to.equal(hashes.get(name));
        expect([...fn.packages], name).to.deep.equal(packages.get(name));
      }
      expect(markKeptOutputs(project.dir)).to.equal(2);
      const reused = bundleApp(app);
      expect(entry(reused, 'shop-dev-route-get-a')).to.include(MARK.trim());
      expect(entry(reused, 'shop-dev-route-get-b')).to.include(MARK.trim());

      // An input of one function changed: that function is built again (its group), with the new code.
      project.write('src/lib/shared.ts', 'export const shared = () => 2;\n');
      const changed = bundleApp(app);
      expect(entry(changed, 'shop-dev-route-get-a')).to.not.include(MARK.trim());
      expect(bundleAssetHash(changed.functions.get('shop-dev-route-get-a')!.directory)).to.not.equal(hashes.get('shop-dev-route-get-a'));

      // A file added next to an input may change how an import resolves: built again.
      expect(markKeptOutputs(project.dir)).to.be.greaterThan(0);
      expect(entry(bundleApp(app), 'shop-dev-route-get-a')).to.include(MARK.trim());
      project.write('src/lib/other.ts', 'export const other = 3;\n');
      expect(entry(bundleApp(app), 'shop-dev-route-get-a')).to.not.include(MARK.trim());

      // Other options are another build; `cache: false` never reads a kept one.
      markKeptOutputs(project.dir);
      expect(entry(bundleApp(app, { minify: false }), 'shop-dev-route-get-a')).to.not.include(MARK.trim());
      expect(entry(bundleApp(app, { cache: false }), 'shop-dev-route-get-a')).to.not.include(MARK.trim());
      expect(entry(bundleApp(app), 'shop-dev-route-get-a')).to.include(MARK.trim());
    } finally {
      project.remove();
    }
  });

  it('keeps no path of the machine in the project (the kept entries name files relative to it)', function () {
    this.timeout(60_000);
    const project = tempProject({ 'src/routes/a/get.ts': routeSource() });
    try {
      bundleApp(defineApp({ ...SMALL_APP, rootDir: project.dir }));
      const root = path.join(project.dir, '.fw', 'bundle-cache');
      const manifests = (fs.readdirSync(root, { recursive: true }) as string[]).filter((file) => file.endsWith('manifest.json'));
      expect(manifests).to.have.length(1);
      expect(fs.readFileSync(path.join(root, manifests[0]!), 'utf8')).to.not.include(project.dir);
    } finally {
      project.remove();
    }
  });
});

describe('readHandlerInfo reuses what it read from a bundle with the same bytes', () => {
  it('reads a bundle again when its bytes change, and never keeps a module that threw', function () {
    this.timeout(120_000);
    const project = tempProject({ 'src/routes/a/get.ts': routeSource(['items:read']), 'src/routes/b/get.ts': routeSource() });
    try {
      const app = defineApp({ ...SMALL_APP, rootDir: project.dir });
      const keptFile = path.join(project.dir, '.fw', 'bundle-cache', 'handler-info.json');
      const first = readHandlerInfo(app, bundleApp(app));
      expect(first.get('shop-dev-route-get-a')?.scopes).to.deep.equal(['items:read']);
      expect([...first.keys()]).to.deep.equal(['shop-dev-route-get-a', 'shop-dev-route-get-b']);

      // What was kept is what the next read returns, without loading the bundles (the file is edited to tell).
      const kept = JSON.parse(fs.readFileSync(keptFile, 'utf8')) as Record<string, { key: string; info: { scopes: string[] } }>;
      kept['shop-dev-route-get-a']!.info.scopes = ['kept:scope'];
      fs.writeFileSync(keptFile, JSON.stringify(kept));
      expect(readHandlerInfo(app, bundleApp(app)).get('shop-dev-route-get-a')?.scopes).to.deep.equal(['kept:scope']);
      expect(readHandlerInfo(app, bundleApp(app), { cache: false }).get('shop-dev-route-get-a')?.scopes).to.deep.equal(['items:read']);

      // New bytes: loaded again.
      project.write('src/routes/a/get.ts', routeSource(['items:write']));
      expect(readHandlerInfo(app, bundleApp(app)).get('shop-dev-route-get-a')?.scopes).to.deep.equal(['items:write']);

      // A module that throws at load is an error every time, never a kept result.
      project.write('src/routes/b/get.ts', "throw new Error('needs the cloud');\nexport const main = async () => ({});\n");
      for (let i = 0; i < 2; i++) expect(() => readHandlerInfo(app, bundleApp(app))).to.throw(/needs the cloud/);
    } finally {
      project.remove();
    }
  });
});
