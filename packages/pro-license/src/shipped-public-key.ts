import type { JsonWebKey } from 'node:crypto';

/**
 * The vendor's Ed25519 public key (JWK) every license key is verified against, offline. Its private half is kept
 * by the vendor and never committed; `scripts/issue-license-key.ts` signs with it from the environment. Rotating it
 * means shipping a release with the new public key (keys signed by the old one stop verifying on that release).
 */
export const SHIPPED_PUBLIC_KEY: JsonWebKey = Object.freeze({
  kty: 'OKP',
  crv: 'Ed25519',
  x: 'DFK1fmbXSvzvCQ9P5OmLgC1FwtA8zo2zxjHjwcvjoy4',
});
