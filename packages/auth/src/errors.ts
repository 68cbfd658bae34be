import { FrameworkError } from '@framework/core/names';

/**
 * Errors of @framework/auth. Every one has a stable `code`; README.md's error table lists each with its cause and fix,
 * and `test/errors.test.ts` keeps the two in step.
 */
export class AuthError extends FrameworkError {}

/**
 * A token that does not verify. Callers answer it with 401 (`WWW-Authenticate: Bearer error="invalid_token"`); the
 * subclasses say why, for the log and for tests, and `cause` keeps the verifier's own error.
 */
export class TokenRejectedError extends AuthError {}

/** `exp` is in the past. */
export class TokenExpiredError extends TokenRejectedError {
  public static readonly CODE = 'FW_ERR_AUTH_TOKEN_EXPIRED';
  constructor(detail: string, options?: { cause?: unknown }) {
    super(TokenExpiredError.CODE, `The token has expired (${detail}). Get a new access token (refresh it) and retry.`, options);
  }
}

/** `iss` is not the issuer (or none of the issuers) the verifier accepts. */
export class WrongIssuerError extends TokenRejectedError {
  public static readonly CODE = 'FW_ERR_AUTH_WRONG_ISSUER';
  constructor(detail: string, options?: { cause?: unknown }) {
    super(WrongIssuerError.CODE, `The token comes from another issuer (${detail}). Use a token of this app's user pool (or add the pool to the verifier's list).`, options);
  }
}

/** `client_id` (or `aud`) names no app client the verifier accepts. */
export class WrongClientError extends TokenRejectedError {
  public static readonly CODE = 'FW_ERR_AUTH_WRONG_CLIENT';
  constructor(detail: string, options?: { cause?: unknown }) {
    super(WrongClientError.CODE, `The token was issued to another app client (${detail}). Sign in through one of the app's clients declared in config/security.ts.`, options);
  }
}

/** The header's `kid` names no key of the issuer's JWKS (or there is no `kid`). */
export class UnknownKeyError extends TokenRejectedError {
  public static readonly CODE = 'FW_ERR_AUTH_UNKNOWN_KID';
  constructor(detail: string, options?: { cause?: unknown }) {
    super(UnknownKeyError.CODE, `The token was signed with a key the issuer does not publish (${detail}). It was not issued by this pool, or its key was rotated out: sign in again.`, options);
  }
}

/** A Cognito ID token (`token_use: id`) where an access token is expected. */
export class NotAccessTokenError extends TokenRejectedError {
  public static readonly CODE = 'FW_ERR_AUTH_NOT_ACCESS_TOKEN';
  constructor(detail: string, options?: { cause?: unknown }) {
    super(NotAccessTokenError.CODE, `The token is not an access token (${detail}). Send the access token (not the ID token) as "Authorization: Bearer <token>".`, options);
  }
}

/** Anything else: not a JWT, a bad signature, a claim of the wrong type, `nbf` in the future. */
export class InvalidTokenError extends TokenRejectedError {
  public static readonly CODE = 'FW_ERR_AUTH_INVALID_TOKEN';
  constructor(detail: string, options?: { cause?: unknown }) {
    super(InvalidTokenError.CODE, `The token is invalid (${detail}). Send an access token as issued by the app's user pool, unchanged.`, options);
  }
}

/** The issuer's JWKS could not be fetched: not the token's fault (a 5xx for the caller, retry later). */
export class JwksUnavailableError extends AuthError {
  public static readonly CODE = 'FW_ERR_AUTH_JWKS_UNAVAILABLE';
  constructor(uri: string, detail: string, options?: { cause?: unknown }) {
    super(JwksUnavailableError.CODE, `The issuer's keys could not be fetched from ${uri} (${detail}). Check that the function can reach the issuer (network, VPC endpoint or NAT), then retry.`, options);
  }
}

/** The function has no pool to verify against: the variables the auth intent sets are missing. */
export class AuthNotConfiguredError extends AuthError {
  public static readonly CODE = 'FW_ERR_AUTH_NOT_CONFIGURED';
  constructor(detail: string) {
    super(AuthNotConfiguredError.CODE, `Auth is not configured: ${detail}. Add \`auth: {}\` to infrastructure in fw.config.ts and an app client in config/security.ts, and run the function through fw dev or a deployed stage.`);
  }
}

/** Every code of this package, with its cause (the README's table lists the same codes). */
export const AUTH_ERROR_CODES = {
  [TokenExpiredError.CODE]: 'the token has expired',
  [WrongIssuerError.CODE]: 'the token comes from another issuer',
  [WrongClientError.CODE]: 'the token was issued to another app client',
  [UnknownKeyError.CODE]: 'the token names a key the issuer does not publish',
  [NotAccessTokenError.CODE]: 'an ID token where an access token is expected',
  [InvalidTokenError.CODE]: 'not a JWT, a bad signature or a bad claim',
  [JwksUnavailableError.CODE]: "the issuer's JWKS could not be fetched",
  [AuthNotConfiguredError.CODE]: 'the auth variables or the trigger settings are missing',
} as const;
