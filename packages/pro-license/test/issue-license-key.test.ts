import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { verifyLicenseKey } from '../src/index.js';
import { testKeys } from './support/test-keys.js';

const run = promisify(execFile);
const script = fileURLToPath(new URL('../scripts/issue-license-key.ts', import.meta.url));
const tsx = fileURLToPath(new URL('../../../node_modules/.bin/tsx', import.meta.url));
// the child gets no FW_* variable of this process
const cleanEnv = () => Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('FW_')));

describe('scripts/issue-license-key.ts (the vendor tool)', () => {
  it('issues a key with the private key from the environment, which verifies against its public key', async () => {
    const pem = testKeys.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    const { stdout } = await run(tsx, [script, '--licensee', 'Acme GmbH', '--packages', 'tenancy,billing', '--expires', '2027-12-31'], { env: { ...cleanEnv(), FW_LICENSE_PRIVATE_KEY: pem } });
    const result = verifyLicenseKey(stdout.trim(), { publicKey: testKeys.publicKey, package: 'billing', now: new Date('2027-01-01T00:00:00Z') });
    expect(result.valid).to.equal(true);
    expect(result.claims).to.include({ licensee: 'Acme GmbH', exp: Date.parse('2027-12-31T00:00:00Z') / 1000 });
  });

  it('stops with the fix when the private key is not in the environment', async () => {
    const error = await run(tsx, [script, '--licensee', 'a', '--packages', 'tenancy', '--expires', '2027-12-31'], { env: cleanEnv() }).catch((e: { code: number; stderr: string }) => e);
    expect(error).to.include({ code: 2 });
    expect((error as { stderr: string }).stderr).to.contain('FW_LICENSE_PRIVATE_KEY');
  });
});
