import { createLocalJWKSet, createRemoteJWKSet, errors, jwtVerify, type JSONWebKeySet, type JWTPayload, type JWTVerifyGetKey } from 'jose';
import { AuthNotConfiguredError, JwksUnavailableError } from '../errors.js';
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
const remoteKeySets = new Map<string, JWTVerifyGetKey>();

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
  const uri = options.jwksUri;
  let keys = remoteKeySets.get(uri);
  if (!keys) {
    const remote = createRemoteJWKSet(new URL(uri));
    // A JWKS that cannot be fetched (a network error, a non-200 answer, not a key set) is not the token's fault.
    keys = async (header, token) => {
      try {
        return await remote(header, token);
      } catch (error) {
        if (error instanceof errors.JWKSNoMatchingKey || error instanceof errors.JWKSMultipleMatchingKeys) throw error;
        throw new JwksUnavailableError(uri, error instanceof Error ? error.message : String(error), { cause: error });
      }
    };
    remoteKeySets.set(uri, keys);
  }
  return keys;
}
