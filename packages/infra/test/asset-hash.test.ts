import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { expect } from 'chai';
import { defineApp } from '@framework/core';
import { bundleAssetHash, preloadSdkClients } from '../src/index.js';
import { functionNamed, synthesize } from './helpers/synth-once.js';
import { SMALL_APP, routeSource, tempProject } from './helpers/temp-project.js';

describe('bundleAssetHash: a function asset is hashed from the bytes bundleApp wrote', () => {
  it('changes with any file of the folder, its name or its bytes, nested ones included, and only then', () => {
    const project = tempProject({ 'fn/index.mjs': 'export const main = 1;\n', 'fn/index.mjs.map': '{}', 'fn/migrations/0001.sql': 'create table t (id int);\n' });
    try {
      const dir = path.join(project.dir, 'fn');
      const first = bundleAssetHash(dir);
      expect(first).to.match(/^[0-9a-f]{64}$/);
      expect(bundleAssetHash(dir)).to.equal(first);
      project.write('fn/migrations/0001.sql', 'create table t (id bigint);\n');
      const second = bundleAssetHash(dir);
      expect(second).to.not.equal(first);
      fs.renameSync(path.join(dir, 'index.mjs.map'), path.join(dir, 'other.map'));
      expect(bundleAssetHash(dir)).to.not.equal(second);
    } finally {
      project.remove();
    }
  });

  it("is the function code's asset hash in the template (CDK does not walk and fingerprint the folder again)", function () {
    this.timeout(120_000);
    const project = tempProject({ 'src/routes/a/get.ts': routeSource(), 'src/routes/b/get.ts': routeSource([], "({ b: true })") });
    const synthesized = synthesize(defineApp({ ...SMALL_APP, rootDir: project.dir }), { checks: false });
    try {
      for (const name of ['shop-dev-route-get-a', 'shop-dev-route-get-b']) {
        const directory = synthesized.stack.bundle.functions.get(name)!.directory;
        // CDK's CUSTOM hash is the sha256 of the fingerprint it is given.
        const expected = createHash('sha256').update(bundleAssetHash(directory)).digest('hex');
        const code = functionNamed(synthesized, name).properties['Code'] as { S3Key: unknown };
        expect(JSON.stringify(code.S3Key), name).to.include(expected);
        // The staged copy is the bundle itself.
        const staged = path.join(synthesized.outdir, `asset.${expected}`);
        expect(fs.readFileSync(path.join(staged, 'index.mjs'), 'utf8')).to.equal(fs.readFileSync(path.join(directory, 'index.mjs'), 'utf8'));
        expect(fs.readdirSync(staged).sort()).to.deep.equal(fs.readdirSync(directory).sort());
        // Staged by the framework (hard links on one file system), not copied by CDK's walk.
        const [stagedStat, bundleStat] = [fs.statSync(path.join(staged, 'index.mjs')), fs.statSync(path.join(directory, 'index.mjs'))];
        if (stagedStat.dev === bundleStat.dev) expect(stagedStat.ino, 'a hard link to the bundle').to.equal(bundleStat.ino);
        // Rewriting the bundle afterwards (the SDK preload) replaces the file: the assembly keeps the bytes it hashed.
        const before = fs.readFileSync(path.join(staged, 'index.mjs'), 'utf8');
        preloadSdkClients({ entryFile: path.join(directory, 'index.mjs') }, ['@aws-sdk/client-sqs']);
        expect(fs.readFileSync(path.join(directory, 'index.mjs'), 'utf8')).to.include('@aws-sdk/client-sqs');
        expect(fs.readFileSync(path.join(staged, 'index.mjs'), 'utf8')).to.equal(before);
      }
    } finally {
      synthesized.cleanup();
      project.remove();
    }
  });
});
