import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { expect } from 'chai';
import { cloudContext } from '../../src/cloud/cloud-app.js';
import { parseCloudOptions } from '../../src/cloud/cloud-options.js';
import { loadCloudApp } from '../../src/cloud/load-cloud-app.js';
import { synthesizeStage } from '../../src/cloud/synthesize-stage.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const example = path.resolve(here, '..', '..', '..', '..', 'examples', 'tasks-api');

/** The JSON files of an assembly folder (name → content): manifest, tree, templates, asset manifests, metadata. */
function assemblyFiles(dir: string): Map<string, string> {
  return new Map(fs.readdirSync(dir).filter((f) => f.endsWith('.json')).sort().map((f) => [f, fs.readFileSync(path.join(dir, f), 'utf8')]));
}

/** A `<stack>.metadata.json` without call stacks: `trace` fields and the `aws:cdk:creationStack` entries' data. */
function withoutCallStacks(json: string): unknown {
  return JSON.parse(json, function (key, value: unknown) {
    if (key === 'trace') return undefined;
    if (key === 'data' && (this as { type?: string }).type === 'aws:cdk:creationStack') return undefined;
    return value;
  });
}

describe('fw synth in process', () => {
  it("writes the example's templates and asset manifests byte for byte as the deployment toolkit does", async function () {
    this.timeout(600_000);
    const toolkitOut = fs.mkdtempSync(path.join(os.tmpdir(), 'fw-synth-toolkit-'));
    const ownOut = fs.mkdtempSync(path.join(os.tmpdir(), 'fw-synth-own-'));
    try {
      // Given the example, synthesized once through the toolkit (what fw deploy deploys)
      const app = await loadCloudApp(example, 'dev');
      const ctx = await cloudContext(app, parseCloudOptions('synth', ['--out', toolkitOut]), { write: () => undefined });
      const assembly = await ctx.toolkit.synth(ctx.source, { stacks: ctx.stacks });
      await assembly.dispose();
      // When fw synth writes it in process
      const directory = await synthesizeStage(app, parseCloudOptions('synth', ['--out', ownOut]));
      // Then every file is the same byte for byte, but the construct metadata's call stacks (they name the caller)
      const theirs = assemblyFiles(toolkitOut);
      const ours = assemblyFiles(directory);
      const templates = [...theirs.keys()].filter((f) => f.endsWith('.template.json'));
      expect(templates.length).to.be.greaterThan(1);
      expect([...ours.keys()]).to.deep.equal([...theirs.keys()]);
      for (const [file, content] of theirs) {
        if (file.endsWith('.metadata.json')) expect(withoutCallStacks(ours.get(file)!), file).to.deep.equal(withoutCallStacks(content));
        else expect(ours.get(file), file).to.equal(content);
      }
      expect(templates.some((f) => theirs.get(f)!.includes('"aws:cdk:path"'))).to.equal(true);
      expect(templates.some((f) => theirs.get(f)!.includes('"aws:asset:path"'))).to.equal(true);
    } finally {
      fs.rmSync(toolkitOut, { recursive: true, force: true });
      fs.rmSync(ownOut, { recursive: true, force: true });
    }
  });

  it('does not load the deployment toolkit (only deploy, diff and destroy need it)', function () {
    this.timeout(300_000);
    const out = fs.mkdtempSync(path.join(os.tmpdir(), 'fw-synth-modules-'));
    // Given fw synth run in a child process on the cloud commands' fixture, which then lists the CommonJS modules it
    // loaded (aws-cdk-lib and the toolkit are CommonJS, so they land in require's cache)
    const probe = `
      import { createRequire } from 'node:module';
      const { run } = await import(${JSON.stringify(pathToFileURL(path.resolve(here, '..', '..', 'src', 'commands', 'synth.ts')).href)});
      const code = await run(['--out', ${JSON.stringify(out)}, '--no-checks']);
      const loaded = Object.keys(createRequire(import.meta.url).cache);
      console.log(JSON.stringify({ code, toolkit: loaded.filter((k) => k.includes('toolkit-lib')).length, cdk: loaded.filter((k) => k.includes('aws-cdk-lib')).length }));
    `;
    try {
      const child = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', probe], { cwd: path.join(here, 'fixtures', 'app'), encoding: 'utf8', timeout: 280_000 });
      expect(child.status, child.stderr).to.equal(0);
      // Then it synthesized with aws-cdk-lib and never loaded the toolkit
      const result = JSON.parse(child.stdout.trim().split('\n').at(-1)!) as { code: number; toolkit: number; cdk: number };
      expect(result.code).to.equal(0);
      expect(result.cdk).to.be.greaterThan(0);
      expect(result.toolkit).to.equal(0);
    } finally {
      fs.rmSync(out, { recursive: true, force: true });
    }
  });
});
