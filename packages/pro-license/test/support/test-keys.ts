import { generateKeyPairSync, type JsonWebKey, type KeyObject } from 'node:crypto';
import { signLicenseKey, type LicenseClaims } from '../../src/index.js';

/** A test key pair, made per run: tests never use the vendor's key. */
export const testKeys: { privateKey: KeyObject; publicKey: JsonWebKey } = (() => {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  return { privateKey, publicKey: publicKey.export({ format: 'jwk' }) };
})();

export const at = (date: string): number => Math.floor(Date.parse(date) / 1000);

/** A key signed by the test pair: tenancy, valid through 2027 unless overridden. */
export function testLicenseKey(overrides: Partial<LicenseClaims> = {}): string {
  return signLicenseKey({ licensee: 'Acme GmbH', packages: ['tenancy'], iat: at('2026-01-01T00:00:00Z'), exp: at('2027-12-31T00:00:00Z'), ...overrides }, testKeys.privateKey);
}
