import { readFileSync } from 'node:fs';
import { expect } from 'chai';
import { expectCodeTable } from '../../core/test/helpers/code-table.js';
import { LICENSE_ERROR_CODES, LICENSE_PROBLEM_CODES, signLicenseKey } from '../src/index.js';
import { testKeys } from './support/test-keys.js';

const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');

describe('@framework-pro/license codes', () => {
  it('lists every license problem and error code in the README, and nothing else', () => {
    expectCodeTable(readme, 'License problems', LICENSE_PROBLEM_CODES);
    expectCodeTable(readme, 'Errors', LICENSE_ERROR_CODES);
  });

  it('refuses to sign claims the verifier would refuse', () => {
    expect(() => signLicenseKey({ licensee: '', packages: ['tenancy'], iat: 0, exp: 1 }, testKeys.privateKey)).to.throw().with.property('code', 'FW_ERR_LICENSE_BAD_SIGNING_INPUT');
    expect(() => signLicenseKey({ licensee: 'a', packages: [], iat: 0, exp: 1 }, testKeys.privateKey)).to.throw(/package/);
    expect(() => signLicenseKey({ licensee: 'a', packages: ['x'], iat: 0, exp: 1 }, 'not a pem')).to.throw(/does not load/);
  });
});
