import { expect } from 'chai';
import { SHIPPED_PUBLIC_KEY, verifyLicenseKey } from '../src/index.js';
import { at, testKeys, testLicenseKey } from './support/test-keys.js';

const publicKey = testKeys.publicKey;
const now = new Date('2026-06-01T00:00:00Z');

describe('verifyLicenseKey', () => {
  it('grants what a valid key signed by the key pair names: licensee, packages, features, expiry', () => {
    const result = verifyLicenseKey(testLicenseKey({ features: ['sso'] }), { publicKey, package: 'tenancy', now });
    expect(result).to.include({ status: 'valid', valid: true });
    expect(result.claims).to.include({ licensee: 'Acme GmbH', exp: at('2027-12-31T00:00:00Z') });
    expect(result.claims?.features).to.deep.equal(['sso']);
    expect(result.message).to.contain('Acme GmbH').and.contain('2027-12-31');
  });

  it('reports a missing key and a value that is not a key', () => {
    expect(verifyLicenseKey(undefined, { publicKey }).status).to.equal('FW_ERR_LICENSE_MISSING');
    expect(verifyLicenseKey('  ', { publicKey }).status).to.equal('FW_ERR_LICENSE_MISSING');
    for (const bad of ['not-a-key', 'a.b', 'e30.e30.e30', `${Buffer.from('{"alg":"HS256"}').toString('base64url')}.e30.AAAA`]) {
      expect(verifyLicenseKey(bad, { publicKey }).status, bad).to.equal('FW_ERR_LICENSE_MALFORMED');
    }
  });

  it('reports a key whose claims were edited as tampered, and one signed by another key pair', () => {
    const [header, payload, signature] = testLicenseKey().split('.');
    const claims = JSON.parse(Buffer.from(payload!, 'base64url').toString()) as Record<string, unknown>;
    const edited = Buffer.from(JSON.stringify({ ...claims, packages: ['*'], exp: at('2099-01-01T00:00:00Z') })).toString('base64url');
    const result = verifyLicenseKey(`${header}.${edited}.${signature}`, { publicKey, now });
    expect(result.status).to.equal('FW_ERR_LICENSE_TAMPERED');
    expect(result.message).to.contain('tampered');
    expect(result.claims).to.equal(undefined);
    // the shipped vendor key is the default: a key signed by the test pair does not verify against it
    expect(verifyLicenseKey(testLicenseKey(), { now }).status).to.equal('FW_ERR_LICENSE_TAMPERED');
    expect(SHIPPED_PUBLIC_KEY).to.include({ kty: 'OKP', crv: 'Ed25519' });
  });

  it('refuses a package the key does not cover; "*" covers all', () => {
    expect(verifyLicenseKey(testLicenseKey({ packages: ['billing'] }), { publicKey, package: 'tenancy', now }).status).to.equal('FW_ERR_LICENSE_NOT_GRANTED');
    expect(verifyLicenseKey(testLicenseKey({ packages: ['*'] }), { publicKey, package: 'tenancy', now }).valid).to.equal(true);
  });

  it('keeps an expired key working on releases published before its expiry, not on later ones', () => {
    const key = testLicenseKey({ exp: at('2026-03-01T00:00:00Z') });
    const older = verifyLicenseKey(key, { publicKey, now, releaseDate: '2026-02-15T00:00:00Z' });
    expect(older).to.include({ status: 'valid', valid: true, expiredButCoversRelease: true });
    const newer = verifyLicenseKey(key, { publicKey, now, releaseDate: '2026-04-01T00:00:00Z' });
    expect(newer.status).to.equal('FW_ERR_LICENSE_EXPIRED');
    expect(newer.message).to.contain('2026-03-01');
    // an explicit "valid for releases before" date moves the line
    const perpetual = testLicenseKey({ exp: at('2026-03-01T00:00:00Z'), releasesBefore: at('2026-05-01T00:00:00Z') });
    expect(verifyLicenseKey(perpetual, { publicKey, now, releaseDate: '2026-04-01T00:00:00Z' }).valid).to.equal(true);
  });
});
