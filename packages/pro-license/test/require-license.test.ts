import { expect } from 'chai';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LICENSE_METRIC, requireLicense, resetLicenseChecks } from '../src/index.js';
import { testKeys, testLicenseKey } from './support/test-keys.js';

const publicKey = testKeys.publicKey;
const now = new Date('2026-06-01T00:00:00Z');
const deployed = { AWS_LAMBDA_FUNCTION_NAME: 'acme-prod-fn-tasks-get' };

describe('requireLicense: the policy', () => {
  beforeEach(() => resetLicenseChecks());
  afterEach(() => resetLicenseChecks());

  it('says nothing with a valid key, and checks once per cold start', () => {
    const lines: string[] = [];
    const env = { FW_LICENSE_KEY: testLicenseKey() };
    expect(requireLicense('tenancy', { env, publicKey, now, write: (l) => lines.push(l) }).valid).to.equal(true);
    // a second call in the same process reuses the first result (even with other inputs)
    expect(requireLicense('tenancy', { env: {}, publicKey, now, write: (l) => lines.push(l) }).valid).to.equal(true);
    expect(lines).to.deep.equal([]);
  });

  it('locally (fw dev, tests) without a key: one clear warning, and the package goes on', () => {
    const lines: string[] = [];
    const check = requireLicense('tenancy', { env: { FW_DEV_ENDPOINT: 'http://127.0.0.1:3000', AWS_LAMBDA_FUNCTION_NAME: 'x', FW_PROJECT_ROOT: tmpdir() }, publicKey, now, write: (l) => lines.push(l) });
    expect(check).to.include({ valid: false, status: 'FW_ERR_LICENSE_MISSING', environment: 'local' });
    expect(lines).to.have.length(1);
    expect(lines[0]).to.contain('@framework-pro/tenancy').and.contain('FW_LICENSE_KEY').and.contain('free');
  });

  it('deployed without a valid key: a loud error log line and an EMF metric line, never a throw', () => {
    const lines: string[] = [];
    const check = requireLicense('tenancy', { env: deployed, publicKey, now, write: (l) => lines.push(l) });
    expect(check).to.include({ valid: false, status: 'FW_ERR_LICENSE_MISSING', environment: 'deployed' });
    const [log, metric] = lines.map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(log).to.include({ level: 'error', code: 'FW_ERR_LICENSE_MISSING', package: 'tenancy' });
    expect(String(log!['message'])).to.contain('UNLICENSED').and.contain('keeps working');
    expect(metric).to.include({ package: 'tenancy', status: 'FW_ERR_LICENSE_MISSING', [LICENSE_METRIC.name]: 1 });
    const aws = metric!['_aws'] as { CloudWatchMetrics: Array<{ Namespace: string; Dimensions: string[][]; Metrics: Array<{ Name: string }> }> };
    expect(aws.CloudWatchMetrics[0]).to.deep.include({ Namespace: 'framework-pro', Dimensions: [['package', 'status']] });
    expect(aws.CloudWatchMetrics[0]!.Metrics[0]!.Name).to.equal('LicenseProblem');
  });

  it('reports a tampered key as tampered, deployed', () => {
    const lines: string[] = [];
    const [h, p, s] = testLicenseKey().split('.');
    // a character in the middle (the last one carries padding bits that may decode to the same bytes)
    const flipped = `${s!.slice(0, 10)}${s![10] === 'A' ? 'B' : 'A'}${s!.slice(11)}`;
    const check = requireLicense('tenancy', { env: { ...deployed, FW_LICENSE_KEY: `${h}.${p}.${flipped}` }, publicKey, now, write: (l) => lines.push(l) });
    expect(check.status).to.equal('FW_ERR_LICENSE_TAMPERED');
    expect(JSON.parse(lines[0]!)).to.include({ code: 'FW_ERR_LICENSE_TAMPERED' });
  });

  it('reads the key from the project .env locally, never deployed', () => {
    const root = mkdtempSync(join(tmpdir(), 'fw-license-'));
    try {
      writeFileSync(join(root, '.env'), `# local secrets\nFW_LICENSE_KEY=${testLicenseKey()}\n`);
      expect(requireLicense('tenancy', { env: { FW_PROJECT_ROOT: root }, publicKey, now, write: () => undefined }).valid).to.equal(true);
      resetLicenseChecks();
      expect(requireLicense('tenancy', { env: { ...deployed, FW_PROJECT_ROOT: root }, publicKey, now, write: () => undefined }).status).to.equal('FW_ERR_LICENSE_MISSING');
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
