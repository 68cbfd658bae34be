import { createHash, timingSafeEqual } from 'node:crypto';

/** RFC 7636: a verifier is 43 to 128 characters of `[A-Za-z0-9-._~]`; an S256 challenge is 43 base64url characters. */
export const CODE_VERIFIER = /^[A-Za-z0-9\-._~]{43,128}$/;
export const S256_CHALLENGE = /^[A-Za-z0-9_-]{43}$/;

/** Whether `verifier` hashes (SHA-256, base64url) to `challenge`. */
export function pkceMatches(verifier: string, challenge: string): boolean {
  if (!CODE_VERIFIER.test(verifier)) return false;
  const actual = Buffer.from(createHash('sha256').update(verifier).digest('base64url'));
  const expected = Buffer.from(challenge);
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}
