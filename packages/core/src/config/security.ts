import * as c from './codec.js';

export const OAUTH_FLOWS = ['client_credentials', 'authorization_code', 'implicit', 'refresh_token', 'user_password', 'user_srp'] as const;
export type OAuthFlow = (typeof OAUTH_FLOWS)[number];

/** An app client: a caller of the API (a web app, a mobile app, another service) and what it may ask for. */
export interface AppClientConfig {
  /** Scopes this client may request; each must be declared in `scopes`. */
  readonly scopes: readonly string[];
  /** OAuth flows the client uses. */
  readonly flows: readonly OAuthFlow[];
  /** Redirect URLs for `authorization_code` / `implicit`. @default [] */
  readonly callbackUrls?: readonly string[];
  /** @default [] */
  readonly logoutUrls?: readonly string[];
  /** Confidential client with a secret (required for `client_credentials`). @default - true when flows include client_credentials */
  readonly generateSecret?: boolean;
}

/**
 * A role: a named set of scopes a user holds (deployed: a Cognito group whose members get these scopes in their access
 * token, as far as the app client they sign in with may request them).
 */
export interface RoleConfig {
  /** Scopes a holder of the role gets; each must be declared in `scopes`. */
  readonly scopes: readonly string[];
  /** What the role is for (the Cognito group's description). @default - none */
  readonly description?: string;
}

/** OAuth scopes, app clients and roles (`config/security.ts`). */
export interface SecurityConfig {
  /** Scope name → description, e.g. `{ 'tasks:read': 'Read tasks' }`. */
  readonly scopes: Readonly<Record<string, string>>;
  /** App client name → client. @default {} */
  readonly appClients?: Readonly<Record<string, AppClientConfig>>;
  /** Role name → role, e.g. `{ admin: { scopes: ['tasks:read', 'tasks:write'] } }`. @default {} */
  readonly roles?: Readonly<Record<string, RoleConfig>>;
}

export const SCOPE_NAME = /^[A-Za-z0-9][A-Za-z0-9:._-]{0,127}$/;

/** A role name: also a Cognito group name, so letters, digits, `-` or `_` (Cognito allows more; this stays portable). */
export const ROLE_NAME = /^[A-Za-z0-9_-]{1,64}$/;

export const securityConfigCodec = c.struct<SecurityConfig>('a security config { scopes, appClients, roles }', {
  scopes: c.required(c.record(c.pattern('a scope name such as "tasks:read"', SCOPE_NAME), c.text(256))),
  appClients: c.optional(
    c.record(
      c.pattern('an app client name of letters, digits, "-" or "_"', /^[A-Za-z0-9_-]{1,64}$/),
      c.struct<AppClientConfig>('an app client { scopes, flows }', {
        scopes: c.required(c.array(c.pattern('a scope name', SCOPE_NAME))),
        flows: c.required(c.array(c.oneOf(OAUTH_FLOWS), { minLength: 1 })),
        callbackUrls: c.optional(c.array(c.pattern('a URL', /^https?:\/\/\S+$/))),
        logoutUrls: c.optional(c.array(c.pattern('a URL', /^https?:\/\/\S+$/))),
        generateSecret: c.optional(c.boolean),
      }),
    ),
  ),
  roles: c.optional(
    c.record(
      c.pattern('a role name of letters, digits, "-" or "_"', ROLE_NAME),
      c.struct<RoleConfig>('a role { scopes, description }', {
        scopes: c.required(c.array(c.pattern('a scope name', SCOPE_NAME))),
        description: c.optional(c.text(2048)),
      }),
    ),
  ),
});
