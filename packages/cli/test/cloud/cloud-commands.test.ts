import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { parseCloudOptions } from '../../src/cloud/cloud-options.js';
import { CloudCommandError } from '../../src/errors.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const fixture = path.join(here, 'fixtures', 'app');
const fwSource = path.resolve(here, '..', '..', 'src', 'bin', 'fw.ts');

/**
 * Runs `fw <args>` from source in the fixture project, with an environment that has no cloud credentials at all:
 * no AWS_* variables, an empty HOME, config files that do not exist, and no instance-metadata lookups (so nothing
 * can wait on a network that is not there). The spawn timeout only guards against a hang.
 */
function fw(args: string[], extraEnv: Record<string, string> = {}) {
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'fw-cloud-home-'));
  try {
    const result = spawnSync(process.execPath, ['--import', 'tsx', fwSource, ...args], {
      cwd: fixture,
      encoding: 'utf8',
      timeout: 120_000,
      env: {
        PATH: process.env.PATH ?? '',
        HOME: home,
        AWS_EC2_METADATA_DISABLED: 'true',
        AWS_CONFIG_FILE: path.join(home, 'missing', 'config'),
        AWS_SHARED_CREDENTIALS_FILE: path.join(home, 'missing', 'credentials'),
        ...extraEnv,
      },
    });
    return { status: result.status, signal: result.signal, stdout: result.stdout, stderr: result.stderr };
  } finally {
    fs.rmSync(home, { recursive: true, force: true });
  }
}

describe('fw deploy, diff and destroy without credentials', () => {
  for (const args of [['deploy'], ['deploy', '--stage', 'prod'], ['diff'], ['destroy', '--yes']]) {
    it(`fw ${args.join(' ')} exits non-zero with instructions and no stack trace`, function () {
      this.timeout(120_000);
      const result = fw(args);
      expect(result.signal, 'finished on its own').to.equal(null);
      expect(result.status).to.equal(1);
      const stage = args.includes('prod') ? 'prod' : 'dev';
      expect(result.stderr).to.include(`fw ${args[0]} needs cloud credentials for stage "${stage}" (region eu-west-1)`);
      expect(result.stderr).to.include('AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY');
      expect(result.stderr).to.include('AWS_PROFILE');
      expect(result.stderr).to.not.match(/^\s+at /m);
    });
  }
});

describe('fw synth', () => {
  it('writes the cloud assembly of the stage with its unit names and preset sizes, without credentials', function () {
    this.timeout(180_000);
    const out = fs.mkdtempSync(path.join(os.tmpdir(), 'fw-synth-out-'));
    const types = path.join(fixture, '.fw', 'types');
    fs.rmSync(types, { recursive: true, force: true });
    try {
      const result = fw(['synth', '--stage', 'prod', '--out', out]);
      expect(result.status, result.stderr).to.equal(0);
      // The app's types as a side product (CI synthesizes, then type-checks).
      expect(fs.readFileSync(path.join(types, 'app.d.ts'), 'utf8')).to.contain('scopes: "tasks:read";');
      expect(result.stdout).to.include(`Cloud assembly written to ${out}`);
      expect(result.stdout).to.match(/cloudcmd-prod: \d+ resources/);
      const templates = fs.readdirSync(out).filter((f) => f.endsWith('.template.json')).map((f) => fs.readFileSync(path.join(out, f), 'utf8'));
      const functions = templates.flatMap((t) => Object.values((JSON.parse(t) as { Resources: Record<string, { Type: string; Properties: Record<string, unknown> }> }).Resources).filter((r) => r.Type === 'AWS::Lambda::Function'));
      // The routes, and the user pool's pre token generation trigger (every pool has one: it adds the user's tenant)
      expect(functions.map((f) => f.Properties.FunctionName)).to.have.members(['cloudcmd-prod-route-get-health', 'cloudcmd-prod-route-get-tasks', 'cloudcmd-prod-auth-pre-token']);
      const routes = functions.filter((f) => String(f.Properties.FunctionName).includes('-route-'));
      for (const f of routes) expect(f.Properties).to.deep.include({ MemorySize: 1024, Runtime: 'nodejs22.x', Architectures: ['arm64'] });
    } finally {
      fs.rmSync(out, { recursive: true, force: true });
      fs.rmSync(types, { recursive: true, force: true });
    }
  });
});

describe('cloud command options', () => {
  it('reads --stage in both spellings and defaults to dev', () => {
    expect(parseCloudOptions('deploy', []).stage).to.equal('dev');
    expect(parseCloudOptions('deploy', ['--stage', 'prod']).stage).to.equal('prod');
    expect(parseCloudOptions('diff', ['--stage=qa']).stage).to.equal('qa');
    expect(parseCloudOptions('synth', ['--no-checks', '--out', 'x'])).to.deep.include({ checks: false, out: 'x' });
  });

  it("leaves aws-cdk-lib's built-in validation off unless --validation", () => {
    expect(parseCloudOptions('synth', []).validation).to.equal(false);
    expect(parseCloudOptions('synth', ['--validation']).validation).to.equal(true);
    expect(parseCloudOptions('deploy', ['--validation']).validation).to.equal(true);
    expect(() => parseCloudOptions('destroy', ['--validation'])).to.throw(/unknown option "--validation"/);
  });

  it('refuses unknown options, missing values and bad stage names', () => {
    expect(() => parseCloudOptions('deploy', ['--stag', 'prod'])).to.throw(/unknown option "--stag"/).with.property('code', 'FW_ERR_CLOUD_BAD_ARGUMENT');
    expect(() => parseCloudOptions('deploy', ['--stage'])).to.throw(/--stage needs a value/).with.property('code', 'FW_ERR_CLOUD_BAD_ARGUMENT');
    expect(() => parseCloudOptions('deploy', ['--stage', 'Prod'])).to.throw(/is not a stage name/).with.property('code', 'FW_ERR_CLOUD_BAD_ARGUMENT');
  });

  it('fw destroy without --yes and without a terminal deletes nothing', function () {
    this.timeout(60_000);
    const result = fw(['destroy']);
    expect(result.status).to.equal(1);
    expect(result.stderr).to.include('there is no terminal to confirm: pass --yes');
  });
});

describe('cloud command errors', () => {
  it('each have a row in README.md', () => {
    const readme = fs.readFileSync(path.resolve(here, '..', '..', 'README.md'), 'utf8');
    for (const code of Object.keys(CloudCommandError.CODES)) expect(readme, code).to.include(`| \`${code}\` |`);
  });
});
