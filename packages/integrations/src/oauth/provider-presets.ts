/**
 * What the connections need to know about an OAuth2 provider. Presets are data: an app adds a provider by writing one
 * of these, never code.
 */
export interface OAuthProviderPreset {
  /** The authorization server's issuer (ID tokens are checked against it when the provider sends one). */
  readonly issuer: string;
  readonly authorizationEndpoint: string;
  readonly tokenEndpoint: string;
  /** @default - none (revocation is skipped on disconnect) */
  readonly revocationEndpoint?: string;
  /** Scopes asked for when a connect call names none. */
  readonly defaultScopes: readonly string[];
  /** How scopes are joined in the authorize URL (Slack's v2 and GitHub accept commas; the standard is a space). @default ' ' */
  readonly scopeSeparator?: string;
  /** How the client authenticates at the token endpoint. @default 'client_secret_basic' */
  readonly tokenEndpointAuth?: 'client_secret_basic' | 'client_secret_post';
  /** Extra parameters of the authorize URL (Google's `access_type=offline` for a refresh token). @default - none */
  readonly authorizationParams?: Readonly<Record<string, string>>;
  /** Whether the provider accepts PKCE (S256). @default true */
  readonly pkce?: boolean;
  /** Notes on quirks the code does not paper over (shown nowhere; for readers of the preset). */
  readonly quirks?: readonly string[];
}

/** Presets for common providers (endpoints from their documentation). */
export const OAUTH_PROVIDER_PRESETS = {
  google: {
    issuer: 'https://accounts.google.com',
    authorizationEndpoint: 'https://accounts.google.com/o/oauth2/v2/auth',
    tokenEndpoint: 'https://oauth2.googleapis.com/token',
    revocationEndpoint: 'https://oauth2.googleapis.com/revoke',
    defaultScopes: ['openid', 'email'],
    tokenEndpointAuth: 'client_secret_post',
    authorizationParams: { access_type: 'offline', prompt: 'consent' },
    quirks: ['a refresh token is only returned with access_type=offline, and again only with prompt=consent'],
  },
  github: {
    issuer: 'https://github.com',
    authorizationEndpoint: 'https://github.com/login/oauth/authorize',
    tokenEndpoint: 'https://github.com/login/oauth/access_token',
    defaultScopes: ['read:user'],
    tokenEndpointAuth: 'client_secret_post',
    quirks: [
      'OAuth app tokens do not expire and carry no expires_in (the configured default applies); GitHub App user tokens expire after 8 hours with a refresh token',
      'the token endpoint answers form-encoded unless asked for JSON (the Accept header is sent)',
    ],
  },
  slack: {
    issuer: 'https://slack.com',
    authorizationEndpoint: 'https://slack.com/oauth/v2/authorize',
    tokenEndpoint: 'https://slack.com/api/oauth.v2.access',
    revocationEndpoint: 'https://slack.com/api/auth.revoke',
    defaultScopes: ['chat:write'],
    scopeSeparator: ',',
    tokenEndpointAuth: 'client_secret_post',
    pkce: false,
    quirks: ['answers HTTP 200 with {"ok": false, "error": ...} on failure', 'tokens expire only when token rotation is turned on for the app'],
  },
  microsoft: {
    issuer: 'https://login.microsoftonline.com/common/v2.0',
    authorizationEndpoint: 'https://login.microsoftonline.com/common/oauth2/v2.0/authorize',
    tokenEndpoint: 'https://login.microsoftonline.com/common/oauth2/v2.0/token',
    defaultScopes: ['openid', 'offline_access', 'User.Read'],
    tokenEndpointAuth: 'client_secret_post',
    quirks: ['a refresh token is only returned with the offline_access scope', "the multi-tenant 'common' issuer differs from the tenant id in ID tokens"],
  },
} as const satisfies Readonly<Record<string, OAuthProviderPreset>>;

/** The name of a built-in preset. */
export type OAuthProviderPresetName = keyof typeof OAUTH_PROVIDER_PRESETS;
