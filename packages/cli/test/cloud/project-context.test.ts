import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { parseCloudOptions } from '../../src/cloud/cloud-options.js';
import { loadCloudApp } from '../../src/cloud/load-cloud-app.js';
import { readProjectContext } from '../../src/cloud/project-context.js';
import { synthesizeStage } from '../../src/cloud/synthesize-stage.js';
import { CloudCommandError } from '../../src/errors.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const fixture = path.join(here, 'fixtures', 'app');

/** The temporary folders the cases made, removed after them. */
const made: string[] = [];
function tempFolder(prefix: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  made.push(dir);
  return dir;
}

function folderWith(cdkJson?: string): string {
  const dir = tempFolder('fw-cdk-json-');
  if (cdkJson !== undefined) fs.writeFileSync(path.join(dir, 'cdk.json'), cdkJson);
  return dir;
}

/** The execution roles of every template of an assembly (route functions sit in nested stacks). */
function executionRoles(assemblyDir: string): number {
  let roles = 0;
  for (const file of fs.readdirSync(assemblyDir).filter((f) => f.endsWith('.template.json'))) {
    const template = JSON.parse(fs.readFileSync(path.join(assemblyDir, file), 'utf8')) as { Resources?: Record<string, { Type: string; Properties?: { AssumeRolePolicyDocument?: unknown } }> };
    for (const resource of Object.values(template.Resources ?? {})) {
      if (resource.Type === 'AWS::IAM::Role' && JSON.stringify(resource.Properties?.AssumeRolePolicyDocument ?? '').includes('lambda.amazonaws.com')) roles++;
    }
  }
  return roles;
}

describe("the project's cdk.json context in the cloud commands", () => {
  after(() => {
    for (const dir of made.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('is empty without cdk.json, or without a context in it', () => {
    expect(readProjectContext(folderWith())).to.deep.equal({});
    expect(readProjectContext(folderWith('{ "app": "npx fw synth" }'))).to.deep.equal({});
  });

  it("reads the context's keys into a map without a prototype", () => {
    const context = readProjectContext(folderWith('{ "context": { "@framework/infra:shareRoles": true, "__proto__": { "x": 1 } } }'));
    expect(Object.getPrototypeOf(context)).to.equal(null);
    expect(context['@framework/infra:shareRoles']).to.equal(true);
    expect(({} as Record<string, unknown>).x).to.equal(undefined);
  });

  it('refuses a cdk.json that is not JSON, or whose context is not an object, with FW_ERR_CLOUD_BAD_CDK_JSON', () => {
    for (const text of ['{ "context": ', '{ "context": [true] }', '{ "context": "shareRoles" }']) {
      expect(() => readProjectContext(folderWith(text)), text)
        .to.throw(CloudCommandError)
        .with.property('code', 'FW_ERR_CLOUD_BAD_CDK_JSON');
    }
  });

  it('reaches the app fw synth builds: "@framework/infra:shareRoles" in cdk.json shares the roles of equal grants', async function () {
    this.timeout(600_000);
    const cdkJson = path.join(fixture, 'cdk.json');
    const app = await loadCloudApp(fixture, 'dev');
    const out = (name: string) => tempFolder(`fw-cdk-json-${name}-`);
    try {
      const separate = executionRoles(await synthesizeStage(app, parseCloudOptions('synth', ['--out', out('separate'), '--no-checks'])));
      fs.writeFileSync(cdkJson, JSON.stringify({ context: { '@framework/infra:shareRoles': true } }));
      const shared = executionRoles(await synthesizeStage(app, parseCloudOptions('synth', ['--out', out('shared'), '--no-checks'])));
      expect(separate).to.be.greaterThan(1);
      expect(shared).to.be.lessThan(separate);
    } finally {
      fs.rmSync(cdkJson, { force: true });
    }
  });
});
