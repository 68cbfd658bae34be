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

/** `SecurityConfig.everyUser`: the scopes of every signed-in user. */
export interface EveryUserConfig {
  /** Each must be declared in `scopes`. */
  readonly scopes: readonly string[];
}

/**
 * Where an identity provider's client secret is kept: a Secrets Manager secret, resolved by CloudFormation at deploy
 * (the value never appears in the template or the config). SSM SecureString parameters cannot be used: CloudFormation
 * resolves them only for a few resource types, and Cognito's identity provider is not one of them.
 */
export interface SecretReference {
  /** The secret's name (or ARN). */
  readonly secretName: string;
  /** The JSON field holding the client secret, when the secret is a JSON object. @default - the whole secret string */
  readonly jsonField?: string;
}

/** Sign-in through an OpenID Connect provider (Google, Microsoft Entra ID, Okta, Auth0, ...). */
export interface OidcIdentityProviderConfig {
  readonly type: 'oidc';
  /** The provider's issuer URL (`https://accounts.google.com`); its discovery document is read from there. */
  readonly issuer: string;
  /** The client id the provider gave the app. */
  readonly clientId: string;
  /** Where the client secret is (never in the config itself). */
  readonly clientSecret: SecretReference;
  /** Scopes asked of the provider. @default ['openid', 'email', 'profile'] */
  readonly scopes?: readonly string[];
  /** User pool attribute → the provider's claim, e.g. `{ email: 'email', name: 'name' }`. @default { email: 'email' } */
  readonly attributeMapping?: Readonly<Record<string, string>>;
}

/** Sign-in through a SAML 2.0 identity provider (an enterprise IdP: Entra ID, Okta, ADFS, ...). */
export interface SamlIdentityProviderConfig {
  readonly type: 'saml';
  /** Where the IdP publishes its metadata document (HTTPS). */
  readonly metadataUrl: string;
  /** User pool attribute → the SAML assertion's attribute (often a URI). @default {} */
  readonly attributeMapping?: Readonly<Record<string, string>>;
}

/** A federated identity provider: users sign in there and become users of the app's pool. */
export type IdentityProviderConfig = OidcIdentityProviderConfig | SamlIdentityProviderConfig;

export const MFA_MODES = ['off', 'optional', 'required'] as const;
export type MfaMode = (typeof MFA_MODES)[number];
/** Second factors: an authenticator app (TOTP) or a code by text message (SMS, sent through Amazon SNS). */
export const MFA_FACTORS = ['totp', 'sms'] as const;
export type MfaFactor = (typeof MFA_FACTORS)[number];

/** Multi-factor authentication of the app's own sign-in (federated users use their provider's). */
export interface MfaConfig {
  /** `optional`: each user may turn it on; `required`: every user sets up a factor at first sign-in. */
  readonly mode: MfaMode;
  /** The factors users may use. @default ['totp'] */
  readonly factors?: readonly MfaFactor[];
}

/** OAuth scopes, app clients and roles (`config/security.ts`). */
export interface SecurityConfig {
  /** Scope name → description, e.g. `{ 'tasks:read': 'Read tasks' }`. */
  readonly scopes: Readonly<Record<string, string>>;
  /** App client name → client. @default {} */
  readonly appClients?: Readonly<Record<string, AppClientConfig>>;
  /** Role name → role, e.g. `{ admin: { scopes: ['tasks:read', 'tasks:write'] } }`. @default {} */
  readonly roles?: Readonly<Record<string, RoleConfig>>;
  /**
   * Scopes every signed-in user gets on top of their roles', a user in no role included: what someone who just signed
   * up (or arrived through an identity provider) may do before anyone gave them a role, such as creating their
   * workspace. Deployed, the pre token generation trigger adds them, as far as the app client may request them;
   * machine tokens (client credentials) never get them. Needs `roles`: without roles every user already gets every
   * scope their client asks for. @default - none
   */
  readonly everyUser?: EveryUserConfig;
  /**
   * Provider name → a federated identity provider (OIDC or SAML) users may sign in with, beside the pool's own
   * sign-in; every browser app client (authorization code, implicit) offers them. @default {}
   */
  readonly identityProviders?: Readonly<Record<string, IdentityProviderConfig>>;
  /** Multi-factor authentication. @default - the auth intent's `mfa` (optional), with TOTP */
  readonly mfa?: MfaConfig;
}

export const SCOPE_NAME = /^[A-Za-z0-9][A-Za-z0-9:._-]{0,127}$/;

/** A role name: also a Cognito group name, so letters, digits, `-` or `_` (Cognito allows more; this stays portable). */
export const ROLE_NAME = /^[A-Za-z0-9_-]{1,64}$/;

/**
 * An identity provider's name (Cognito's rule: 3 to 32 characters, not starting or ending with "_"; this stays
 * portable), other than the names Cognito keeps for its own sign-in and its social providers.
 */
export const IDENTITY_PROVIDER_NAME = /^(?!(?:cognito|google|facebook|loginwithamazon|signinwithapple)$)[A-Za-z0-9][A-Za-z0-9._-]{1,30}[A-Za-z0-9]$/i;

/** A user pool attribute a provider's claim may fill: a standard one or `custom:<name>`. */
export const USER_POOL_ATTRIBUTE = /^(?:address|birthdate|email|family_name|gender|given_name|locale|middle_name|name|nickname|phone_number|picture|preferred_username|profile|updated_at|website|zoneinfo|custom:[A-Za-z0-9_]{1,20})$/;

const HTTPS_URL = /^https:\/\/[^\s/]+(?:\/\S*)?$/;

const attributeMappingCodec = c.record(
  c.pattern('a user pool attribute (email, name, given_name, ... or custom:<name>)', USER_POOL_ATTRIBUTE),
  c.pattern('a claim or attribute name of the provider', /^\S{1,256}$/),
);

const identityProviderCodec = c.tagged<IdentityProviderConfig>('an identity provider { type: "oidc" | "saml", ... }', 'type', {
  oidc: c.struct<OidcIdentityProviderConfig>('an OIDC identity provider { type: "oidc", issuer, clientId, clientSecret }', {
    type: c.required(c.oneOf(['oidc'] as const)),
    issuer: c.required(c.pattern('an https:// issuer URL', HTTPS_URL)),
    clientId: c.required(c.pattern('a client id', /^\S{1,256}$/)),
    clientSecret: c.required(
      c.struct<SecretReference>('a secret reference { secretName } (a Secrets Manager secret: never the secret itself)', {
        secretName: c.required(c.pattern('a Secrets Manager secret name or ARN', /^[A-Za-z0-9/_+=.@:-]{1,2048}$/)),
        jsonField: c.optional(c.pattern('a JSON field name', /^\S{1,256}$/)),
      }),
    ),
    scopes: c.optional(c.array(c.pattern('an OAuth scope', /^[\x21\x23-\x5b\x5d-\x7e]{1,256}$/), { minLength: 1 })),
    attributeMapping: c.optional(attributeMappingCodec),
  }) as c.Codec<IdentityProviderConfig>,
  saml: c.struct<SamlIdentityProviderConfig>('a SAML identity provider { type: "saml", metadataUrl }', {
    type: c.required(c.oneOf(['saml'] as const)),
    metadataUrl: c.required(c.pattern('an https:// metadata URL', HTTPS_URL)),
    attributeMapping: c.optional(attributeMappingCodec),
  }) as c.Codec<IdentityProviderConfig>,
});

/** The security config as resolved: its maps filled in; `mfa` stays as given (the auth intent's `mfa` is its default). */
export type ResolvedSecurity = Required<Omit<SecurityConfig, 'mfa' | 'everyUser'>> & Pick<SecurityConfig, 'mfa' | 'everyUser'>;

export const securityConfigCodec = c.struct<SecurityConfig>('a security config { scopes, appClients, roles, everyUser, identityProviders, mfa }', {
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
  everyUser: c.optional(
    c.struct<EveryUserConfig>('the scopes of every signed-in user { scopes }', {
      scopes: c.required(c.array(c.pattern('a scope name', SCOPE_NAME))),
    }),
  ),
  identityProviders: c.optional(
    c.record(
      c.pattern('a provider name of 3 to 32 letters, digits, ".", "_" or "-" (not Cognito, Google, Facebook, LoginWithAmazon or SignInWithApple, which Cognito keeps)', IDENTITY_PROVIDER_NAME),
      identityProviderCodec,
    ),
  ),
  mfa: c.optional(
    c.struct<MfaConfig>('an MFA setting { mode, factors }', {
      mode: c.required(c.oneOf(MFA_MODES)),
      factors: c.optional(c.array(c.oneOf(MFA_FACTORS), { minLength: 1 })),
    }),
  ),
});
