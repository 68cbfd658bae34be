/**
 * @framework-pro/license: the one offline license check the `@framework-pro/*` packages share. See README.md for
 * the policy (free locally, never takes production down, loud when deployed without a key).
 */
export * from './errors.js';
export type { LicenseClaims } from './license-claims.js';
export { signLicenseKey, decodeLicenseToken, type LicensePublicKey, type LicensePrivateKey, type DecodedLicenseToken } from './license-token.js';
export * from './verify-license-key.js';
export * from './license-environment.js';
export * from './require-license.js';
export { RELEASE_DATE } from './release-date.js';
export { SHIPPED_PUBLIC_KEY } from './shipped-public-key.js';
