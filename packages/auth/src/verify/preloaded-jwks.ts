import { isJwks, type Jwks } from 'aws-jwt-verify/jwk';
import type { Json } from 'aws-jwt-verify/safe-json-parse';
import { TOKEN_VERIFIER_ENV } from '@framework/core/names';

/**
 * The JWKS preloaded at deploy (`FW_AUTH_JWKS`), when the variable holds one. A value that is not a JWKS is ignored
 * with a warning: preloading only saves the first fetch, so the verifier falls back to fetching rather than failing.
 */
export function preloadedJwksOf(value: string | undefined): Jwks | undefined {
  if (!value) return undefined;
  let parsed: Json | undefined;
  try {
    parsed = JSON.parse(value) as Json;
  } catch {
    parsed = undefined;
  }
  if (parsed !== undefined && isJwks(parsed)) return parsed;
  console.warn(`${TOKEN_VERIFIER_ENV.jwks} is not a JWKS ({ "keys": [...] }); the verifier fetches the issuer's JWKS instead`);
  return undefined;
}
