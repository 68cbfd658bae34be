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

/** OAuth scopes and app clients (`config/security.ts`). */
export interface SecurityConfig {
  /** Scope name → description, e.g. `{ 'tasks:read': 'Read tasks' }`. */
  readonly scopes: Readonly<Record<string, string>>;
  /** App client name → client. @default {} */
  readonly appClients?: Readonly<Record<string, AppClientConfig>>;
}

export const SCOPE_NAME = /^[A-Za-z0-9][A-Za-z0-9:._-]{0,127}$/;

export const securityConfigCodec = c.struct<SecurityConfig>('a security config { scopes, appClients }', {
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
});
