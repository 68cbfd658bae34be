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

/** Bad input to a `service.auth` call (a caller's mistake, worth a 4xx if it came from a request). */
export class InvalidUserInputError extends AuthError {
  public static readonly CODE = 'FW_ERR_AUTH_INVALID_INPUT';
  constructor(detail: string, options?: { cause?: unknown }) {
    super(InvalidUserInputError.CODE, `Invalid input to service.auth: ${detail}.`, options);
  }
}

/** A role that `config/security.ts` does not declare. */
export class UnknownRoleError extends AuthError {
  public static readonly CODE = 'FW_ERR_AUTH_UNKNOWN_ROLE';
  constructor(
    readonly roles: readonly string[],
    readonly declared: readonly string[],
  ) {
    super(UnknownRoleError.CODE, `Role${roles.length > 1 ? 's' : ''} ${roles.map((r) => JSON.stringify(r)).join(', ')} ${roles.length > 1 ? 'are' : 'is'} not declared in config/security.ts; declared roles: ${declared.join(', ') || '(none)'}. Use one of them, or declare the role under security.roles.`);
  }
}

/** No user of that name in the pool (or in fw dev's user store). */
export class UserNotFoundError extends AuthError {
  public static readonly CODE = 'FW_ERR_AUTH_USER_NOT_FOUND';
  constructor(
    readonly username: string,
    options?: { cause?: unknown },
  ) {
    super(UserNotFoundError.CODE, `There is no user "${username}". Check the username (service.auth.listUsers() lists them).`, options);
  }
}

/** `createUser` with a username that is taken. */
export class UserExistsError extends AuthError {
  public static readonly CODE = 'FW_ERR_AUTH_USER_EXISTS';
  constructor(
    readonly username: string,
    options?: { cause?: unknown },
  ) {
    super(UserExistsError.CODE, `A user "${username}" exists already. Choose another username, or change the existing user's roles with setRoles.`, options);
  }
}

/**
 * `confirmUser` of a user who is not awaiting confirmation: only a user who signed up and has not entered their
 * verification code is `UNCONFIRMED` (Cognito: "User cannot be confirmed. Current status is CONFIRMED").
 */
export class NothingToConfirmError extends AuthError {
  public static readonly CODE = 'FW_ERR_AUTH_NOTHING_TO_CONFIRM';
  constructor(
    readonly username: string,
    readonly status: string,
    options?: { cause?: unknown },
  ) {
    super(
      NothingToConfirmError.CODE,
      `User "${username}" needs no confirmation: their status is ${status}. confirmUser confirms a user who signed up and has not entered their verification code (status UNCONFIRMED); ${status === 'FORCE_CHANGE_PASSWORD' ? 'this user was created with a temporary password and signs in with it' : 'this user can sign in already'}.`,
      options,
    );
  }
}

/** `machineToken` for an app client that is not declared, or has no client_credentials flow. */
export class UnknownAppClientError extends AuthError {
  public static readonly CODE = 'FW_ERR_AUTH_UNKNOWN_CLIENT';
  constructor(detail: string) {
    super(UnknownAppClientError.CODE, `${detail}. Declare the app client in config/security.ts with flows: ['client_credentials'] and the scopes it may request.`);
  }
}

/** The identity provider refused or failed a call (Cognito's error, or fw dev's issuer's, is the `cause`). */
export class IdentityProviderError extends AuthError {
  public static readonly CODE = 'FW_ERR_AUTH_PROVIDER';
  constructor(operation: string, detail: string, options?: { cause?: unknown }) {
    super(IdentityProviderError.CODE, `service.auth.${operation} failed: ${detail}.`, options);
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
  [InvalidUserInputError.CODE]: 'bad input to a service.auth call',
  [UnknownRoleError.CODE]: 'a role not declared in config/security.ts',
  [UserNotFoundError.CODE]: 'no user of that name',
  [UserExistsError.CODE]: 'createUser with a username that is taken',
  [NothingToConfirmError.CODE]: 'confirmUser of a user who is not UNCONFIRMED',
  [UnknownAppClientError.CODE]: 'machineToken for an undeclared client or one without client_credentials',
  [IdentityProviderError.CODE]: 'Cognito or the dev issuer refused or failed a call',
} as const;
