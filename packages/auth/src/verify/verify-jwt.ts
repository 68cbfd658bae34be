import { createLocalJWKSet, createRemoteJWKSet, jwtVerify, type JSONWebKeySet, type JWTPayload } from 'jose';
import { AuthNotConfiguredError } from '../errors.js';
import { rejection } from './rejection.js';

/** Options of `verifyJwt`: where the keys are, and what `iss` and `aud` must be. */
export interface VerifyJwtOptions {
  /** The issuer's JWKS URL (fetched once and cached, refreshed when a token names an unknown `kid`). Or give `jwks`. */
  readonly jwksUri?: string;
  /** The keys themselves. Or give `jwksUri`. */
  readonly jwks?: JSONWebKeySet;
  /** The accepted `iss` (one or several). */
  readonly issuer: string | readonly string[];
  /** The accepted `aud` (one or several); the token must carry one of them. */
  readonly audience: string | readonly string[];
  /** Seconds of clock skew tolerated on `exp`, `nbf` and `iat`. @default 0 */
  readonly clockTolerance?: number;
  /** Signature algorithms accepted. @default ['RS256', 'ES256', 'EdDSA'] */
  readonly algorithms?: readonly string[];
}

/** Remote key sets by URL: one per issuer for the life of the process (a warm Lambda reuses the keys). */
const remoteKeySets = new Map<string, ReturnType<typeof createRemoteJWKSet>>();

/**
 * Verifies a JWT of any OpenID issuer (Auth0, Entra ID, Google, a partner's webhook) with jose: signature against the
 * JWKS, `iss`, `aud`, `exp` and `nbf`. The result is the payload; a failed check is one of this package's
 * `TokenRejectedError`s, the same classes `verifyAccessToken` throws.
 */
export async function verifyJwt(token: string, options: VerifyJwtOptions): Promise<JWTPayload> {
  const keys = keySetOf(options);
  try {
    const { payload } = await jwtVerify(token, keys, {
      issuer: [options.issuer].flat(),
      audience: [options.audience].flat(),
      clockTolerance: options.clockTolerance ?? 0,
      algorithms: [...(options.algorithms ?? ['RS256', 'ES256', 'EdDSA'])],
      requiredClaims: ['exp'],
    });
    return payload;
  } catch (error) {
    throw rejection(error, options.jwksUri);
  }
}

function keySetOf(options: VerifyJwtOptions) {
  if (options.jwks) return createLocalJWKSet(options.jwks);
  if (!options.jwksUri) throw new AuthNotConfiguredError('verifyJwt needs `jwksUri` or `jwks`');
  let keys = remoteKeySets.get(options.jwksUri);
  if (!keys) {
    keys = createRemoteJWKSet(new URL(options.jwksUri));
    remoteKeySets.set(options.jwksUri, keys);
  }
  return keys;
}
