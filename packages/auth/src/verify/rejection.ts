import {
  CognitoJwtInvalidClientIdError,
  CognitoJwtInvalidTokenUseError,
  FetchError,
  JwksNotAvailableInCacheError,
  JwtExpiredError,
  JwtInvalidAudienceError,
  JwtInvalidIssuerError,
  JwtWithoutValidKidError,
  KidNotFoundInJwksError,
  ParameterValidationError,
  WaitPeriodNotYetEndedJwkError,
} from 'aws-jwt-verify/error';
import { errors as jose } from 'jose';
import {
  AuthError,
  InvalidTokenError,
  JwksUnavailableError,
  NotAccessTokenError,
  TokenExpiredError,
  UnknownKeyError,
  WrongClientError,
  WrongIssuerError,
} from '../errors.js';

/**
 * One vocabulary for both libraries: an error of aws-jwt-verify or jose becomes this package's error of the same
 * meaning (the library's error stays as `cause`). Errors that are already ours pass through.
 */
export function rejection(error: unknown, jwksUri: string | undefined): AuthError {
  if (error instanceof AuthError) return error;
  const message = error instanceof Error ? error.message : String(error);
  const options = { cause: error };
  // aws-jwt-verify
  if (error instanceof JwtExpiredError) return new TokenExpiredError(message, options);
  if (error instanceof JwtInvalidIssuerError) return new WrongIssuerError(message, options);
  // A verifier of several pools picks the pool by `iss` before it checks anything else.
  if (error instanceof ParameterValidationError && message.startsWith('issuer not configured')) return new WrongIssuerError(message, options);
  if (error instanceof CognitoJwtInvalidClientIdError || error instanceof JwtInvalidAudienceError) return new WrongClientError(message, options);
  if (error instanceof CognitoJwtInvalidTokenUseError) return new NotAccessTokenError(message, options);
  if (error instanceof KidNotFoundInJwksError || error instanceof JwtWithoutValidKidError || error instanceof WaitPeriodNotYetEndedJwkError) return new UnknownKeyError(message, options);
  if (error instanceof FetchError || error instanceof JwksNotAvailableInCacheError) return new JwksUnavailableError(jwksUri ?? 'the JWKS URI', message, options);
  // jose
  if (error instanceof jose.JWTExpired) return new TokenExpiredError(message, options);
  if (error instanceof jose.JWTClaimValidationFailed) {
    if (error.claim === 'iss') return new WrongIssuerError(message, options);
    if (error.claim === 'aud') return new WrongClientError(message, options);
    return new InvalidTokenError(message, options);
  }
  if (error instanceof jose.JWKSNoMatchingKey) return new UnknownKeyError(message, options);
  if (error instanceof jose.JWKSTimeout || error instanceof jose.JWKSInvalid) return new JwksUnavailableError(jwksUri ?? 'the JWKS URI', message, options);
  return new InvalidTokenError(message, options);
}
