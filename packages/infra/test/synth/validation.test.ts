import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { expect } from 'chai';
import { defineApp } from '@framework/core';
import { buildCdkApp } from '../../src/index.js';
import { SMALL_APP, routeSource, tempProject } from '../helpers/temp-project.js';

/** aws-cdk-lib's built-in CloudFormation validation writes `validation-report.json` into the assembly when it runs. */
function synthesizedFiles(validation: boolean | undefined): string[] {
  const project = tempProject({ 'src/routes/a/get.ts': routeSource() });
  const outdir = fs.mkdtempSync(path.join(os.tmpdir(), 'fw-validation-'));
  try {
    const app = defineApp({ ...SMALL_APP, rootDir: project.dir, infrastructure: {} });
    const { cdkApp } = buildCdkApp(app, { outdir, checks: false, ...(validation === undefined ? {} : { validation }) });
    cdkApp.synth();
    return fs.readdirSync(outdir);
  } finally {
    project.remove();
    fs.rmSync(outdir, { recursive: true, force: true });
  }
}

describe("aws-cdk-lib's built-in CloudFormation validation", () => {
  it('is off by default (cdk-nag is the gate)', function () {
    this.timeout(120_000);
    const files = synthesizedFiles(undefined);
    expect(files).to.include('manifest.json');
    expect(files).to.not.include('validation-report.json');
  });

  it('runs when `validation: true`', function () {
    this.timeout(180_000);
    expect(synthesizedFiles(true)).to.include('validation-report.json');
  });
});
