import type { LicenseProblemCode } from './errors.js';
import type { LicenseClaims } from './license-claims.js';
import { decodeLicenseToken, signatureVerifies, type LicensePublicKey } from './license-token.js';
import { RELEASE_DATE } from './release-date.js';
import { SHIPPED_PUBLIC_KEY } from './shipped-public-key.js';

export interface VerifyLicenseKeyOptions {
  /**
   * The key to verify against (tests pass their own test key pair's).
   * @default - the vendor key shipped in this package
   */
  readonly publicKey?: LicensePublicKey;
  /**
   * The package asking (`tenancy`): the key must list it (or `'*'`). Without it only signature and dates are checked.
   * @default - none
   */
  readonly package?: string;
  /**
   * When this release was published (ISO 8601 or a `Date`).
   * @default - `RELEASE_DATE`
   */
  readonly releaseDate?: string | Date;
  /** @default - the current time */
  readonly now?: Date;
}

/** What a key grants here and now. */
export interface LicenseVerification {
  /** `valid`, or the problem's code (`FW_ERR_LICENSE_TAMPERED`, ...). */
  readonly status: 'valid' | LicenseProblemCode;
  readonly valid: boolean;
  /** The signed claims, when the signature verified. */
  readonly claims?: LicenseClaims;
  /** The key expired but still covers this release (published before `releasesBefore`). */
  readonly expiredButCoversRelease?: boolean;
  /** One sentence: what was found, and the fix when it is a problem. */
  readonly message: string;
}

const day = (seconds: number) => new Date(seconds * 1000).toISOString().slice(0, 10);

/** Verifies a license key offline. Never throws: every problem is a status. */
export function verifyLicenseKey(key: string | undefined, options: VerifyLicenseKeyOptions = {}): LicenseVerification {
  if (key === undefined || key.trim() === '') {
    return { status: 'FW_ERR_LICENSE_MISSING', valid: false, message: 'no license key: set FW_LICENSE_KEY (deployed: from a secret; locally: the environment or .env)' };
  }
  const decoded = decodeLicenseToken(key);
  if (!decoded.ok) return { status: 'FW_ERR_LICENSE_MALFORMED', valid: false, message: `FW_LICENSE_KEY is not a license key (${decoded.problem}); paste the whole key you received` };
  if (!signatureVerifies(decoded, options.publicKey ?? SHIPPED_PUBLIC_KEY)) {
    return { status: 'FW_ERR_LICENSE_TAMPERED', valid: false, message: 'the license key is tampered: its signature does not verify against the vendor key (edited, or not issued by the vendor); use the key exactly as issued' };
  }
  const claims = decoded.claims;
  if (options.package !== undefined && !claims.packages.includes('*') && !claims.packages.includes(options.package)) {
    return { status: 'FW_ERR_LICENSE_NOT_GRANTED', valid: false, claims, message: `the license key of ${claims.licensee} does not cover @framework-pro/${options.package} (it covers ${claims.packages.join(', ')}); ask for a key that includes it` };
  }
  const now = (options.now ?? new Date()).getTime() / 1000;
  if (now < claims.exp) return { status: 'valid', valid: true, claims, message: `licensed to ${claims.licensee} until ${day(claims.exp)}` };
  const releasedAt = new Date(options.releaseDate ?? RELEASE_DATE).getTime() / 1000;
  const releasesBefore = claims.releasesBefore ?? claims.exp;
  if (releasedAt < releasesBefore) {
    return { status: 'valid', valid: true, claims, expiredButCoversRelease: true, message: `licensed to ${claims.licensee}: the key expired on ${day(claims.exp)} and keeps covering releases published before ${day(releasesBefore)}, this one included` };
  }
  return { status: 'FW_ERR_LICENSE_EXPIRED', valid: false, claims, message: `the license key of ${claims.licensee} expired on ${day(claims.exp)} and covers releases published before ${day(releasesBefore)}, not this one; renew the key, or stay on an earlier release` };
}
