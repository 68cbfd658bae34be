/** An OAuth scope (core's `security.scopes` record, as a jsii-friendly list). */
export interface Scope {
  /** Scope name such as `tasks:read`. */
  readonly name: string;
  /** What the scope allows, shown to whoever grants it. */
  readonly description: string;
}

/** OAuth flows an app client may use. */
export enum OAuthFlow {
  CLIENT_CREDENTIALS = 'client_credentials',
  AUTHORIZATION_CODE = 'authorization_code',
  IMPLICIT = 'implicit',
  REFRESH_TOKEN = 'refresh_token',
  USER_PASSWORD = 'user_password',
  USER_SRP = 'user_srp',
}

/** An app client: a caller of the API and the scopes it may ask for. */
export interface AppClient {
  /** Letters, digits, `-` or `_`. */
  readonly name: string;
  /** Scopes this client may request; each must be declared in `scopes`. */
  readonly scopes: string[];
  /** @default [OAuthFlow.CLIENT_CREDENTIALS] */
  readonly flows?: OAuthFlow[];
  /** Redirect URLs for `authorization_code` / `implicit`. @default - none */
  readonly callbackUrls?: string[];
  /** @default - none */
  readonly logoutUrls?: string[];
  /** Confidential client with a secret. @default - true when flows include client_credentials */
  readonly generateSecret?: boolean;
}

/**
 * A role (core's `security.roles` record, as a jsii-friendly list): the scopes a user holding it gets. Deployed, a
 * Cognito group.
 */
export interface Role {
  /** Letters, digits, `-` or `_` (at most 64). */
  readonly name: string;
  /** Scopes a holder of the role gets; each must be declared in `scopes`. */
  readonly scopes: string[];
  /** What the role is for. @default - none */
  readonly description?: string;
}
