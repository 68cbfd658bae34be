import { FrameworkError } from '@framework/core/names';

/**
 * Why a license check did not pass. None of these is ever thrown at a request: the pro packages keep working and
 * report the problem (see README.md, "Policy"). README.md's table lists every code; `test/errors.test.ts` keeps them
 * in step.
 */
export const LICENSE_PROBLEM_CODES = {
  FW_ERR_LICENSE_MISSING: 'No key: `FW_LICENSE_KEY` is not set (nor in `.env` locally).',
  FW_ERR_LICENSE_MALFORMED: 'The value of `FW_LICENSE_KEY` is not a license key (not three base64url parts of JSON, or claims missing).',
  FW_ERR_LICENSE_TAMPERED: 'The key does not verify against the shipped public key: it was edited, or signed by someone else.',
  FW_ERR_LICENSE_EXPIRED: 'The key expired, and this release was published after its `releasesBefore` date.',
  FW_ERR_LICENSE_NOT_GRANTED: 'The key is valid but does not cover this package (its `packages` claim).',
} as const;

export type LicenseProblemCode = keyof typeof LICENSE_PROBLEM_CODES;

/** Errors of the signing side (vendor script, tests): bad claims or a bad private key. */
export const LICENSE_ERROR_CODES = {
  FW_ERR_LICENSE_BAD_SIGNING_INPUT: '`signLicenseKey` was given claims it would not verify (no licensee, no packages, no expiry) or a private key that is not Ed25519.',
} as const;

export type LicenseErrorCode = keyof typeof LICENSE_ERROR_CODES;

export class LicenseError extends FrameworkError {
  constructor(code: LicenseErrorCode, message: string) {
    super(code, message);
  }
}
