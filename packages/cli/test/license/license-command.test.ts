import { spawnSync } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { expect } from 'chai';
import { signLicenseKey } from '../../../pro-license/src/index.js';
import { LICENSE_KEY_CONTEXT } from '@framework/core/names';
import { licenseKeyContext, projectLicenseReport } from '../../src/license/index.js';

const here = dirname(fileURLToPath(import.meta.url));
const fwSource = resolve(here, '..', '..', 'src', 'bin', 'fw.ts');
const licensePackage = resolve(here, '..', '..', '..', 'pro-license');
const at = (date: string) => Math.floor(Date.parse(date) / 1000);

/** A project folder depending on @framework-pro/tenancy, with this repository's license package installed. */
function project(dependencies: Record<string, string> = { '@framework-pro/tenancy': '0.1.0' }): string {
  const root = mkdtempSync(join(tmpdir(), 'fw-license-cmd-'));
  writeFileSync(join(root, 'package.json'), JSON.stringify({ name: 'acme', private: true, dependencies }));
  mkdirSync(join(root, 'node_modules', '@framework-pro'), { recursive: true });
  symlinkSync(licensePackage, join(root, 'node_modules', '@framework-pro', 'license'), 'dir');
  return root;
}

function fw(cwd: string, env: Record<string, string> = {}) {
  // the child gets no FW_* variable of this process
  const base = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('FW_')));
  // tsx by its own location: the project folder does not have it
  return spawnSync(process.execPath, ['--import', pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href, fwSource, 'license'], { cwd, env: { ...base, ...env }, encoding: 'utf8', timeout: 60_000 });
}

describe('fw license', function () {
  this.timeout(120_000);
  const roots: string[] = [];
  after(() => roots.forEach((root) => rmSync(root, { recursive: true, force: true })));

  it('shows what a key grants (licensee, packages, features, expiry) and that the project\'s pro package is covered', async () => {
    const { privateKey, publicKey } = generateKeyPairSync('ed25519');
    const key = signLicenseKey({ licensee: 'Acme GmbH', packages: ['tenancy'], features: ['sso'], iat: at('2026-01-01'), exp: at('2099-12-31') }, privateKey);
    const root = project();
    roots.push(root);
    writeFileSync(join(root, '.env'), `FW_LICENSE_KEY=${key}\n`);
    const report = await projectLicenseReport(root, {}, { publicKey: publicKey.export({ format: 'jwk' }) });
    expect(report.ok).to.equal(true);
    const text = report.lines.join('\n');
    expect(text).to.contain('FW_LICENSE_KEY in .env').and.contain('Acme GmbH').and.contain('tenancy').and.contain('sso').and.contain('2099-12-31');
    expect(text).to.contain('@framework-pro/tenancy: covered');
  });

  it('says a key that the shipped vendor key does not verify is tampered, and exits 1', () => {
    const { privateKey } = generateKeyPairSync('ed25519');
    const root = project();
    roots.push(root);
    const key = signLicenseKey({ licensee: 'Mallory', packages: ['*'], iat: at('2026-01-01'), exp: at('2099-12-31') }, privateKey);
    const result = fw(root, { FW_LICENSE_KEY: key });
    expect(result.status, result.stderr).to.equal(1);
    expect(result.stdout).to.contain('FW_ERR_LICENSE_TAMPERED').and.contain('tampered').and.contain('@framework-pro/tenancy');
  });

  it('says when no key is set, and when the project uses no pro package', () => {
    const root = project();
    roots.push(root);
    const missing = fw(root);
    expect(missing.status).to.equal(1);
    expect(missing.stdout).to.contain('FW_LICENSE_KEY is not set').and.contain('FW_ERR_LICENSE_MISSING');
    const free = project({});
    roots.push(free);
    rmSync(join(free, 'node_modules'), { recursive: true });
    const none = fw(free);
    expect(none.status, none.stderr).to.equal(0);
    expect(none.stdout).to.contain('uses no @framework-pro package');
  });

  it('carries the key to fw synth/deploy (CDK context) for a project with a pro package: environment first, else .env', () => {
    const root = project();
    roots.push(root);
    expect(licenseKeyContext(root, {})).to.deep.equal({});
    writeFileSync(join(root, '.env'), 'FW_LICENSE_KEY=from-dot-env\n');
    expect(licenseKeyContext(root, {})).to.deep.equal({ [LICENSE_KEY_CONTEXT]: 'from-dot-env' });
    expect(licenseKeyContext(root, { FW_LICENSE_KEY: 'from-ci-secret' })).to.deep.equal({ [LICENSE_KEY_CONTEXT]: 'from-ci-secret' });
    // an app without pro packages never gets the variable
    const free = project({});
    roots.push(free);
    expect(licenseKeyContext(free, { FW_LICENSE_KEY: 'k' })).to.deep.equal({});
  });
});
