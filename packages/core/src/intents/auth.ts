import type { Codec } from '../config/codec.js';
import type { MfaFactor, ResolvedSecurity } from '../config/security.js';
import { ConfigError } from '../errors.js';
import { ENV } from '../environment/variables.js';
import { authDomainPrefixBase, preTokenGenerationFunctionName, userPoolName } from '../naming/unit-names.js';
import { fixedValue, outputRef, type CodecKit, type IntentKindModule, type KindValue } from './intent-kind.js';

/** Outputs of the auth intent that reach functions. */
export const AUTH_OUTPUTS = ['issuer', 'audience', 'userPoolId', 'resourceServer'] as const;

/** A managed identity provider for the security config's scopes and app clients. */
export interface AuthIntent {
  /** Let users sign themselves up. @default false */
  readonly selfSignUp?: boolean;
  /** Default of `security.mfa.mode` (set one or the other, or both alike). @default 'optional' */
  readonly mfa?: 'off' | 'optional' | 'required';
  /** @default 12 */
  readonly passwordMinLength?: number;
  /** @default 60 */
  readonly accessTokenValidityMinutes?: number;
  /**
   * Prefix of the hosted sign-in domain (`https://<prefix>.auth.<region>.amazoncognito.com`). Prefixes are global per
   * region across all AWS accounts; Cognito refuses ones containing `aws`, `amazon` or `cognito`.
   * @default - `{project}-{stage}-` plus a suffix unique to the stack (so to the account and region)
   */
  readonly domainPrefix?: string;
}

/** Words Cognito refuses anywhere in a domain prefix. */
export const RESERVED_DOMAIN_WORDS = ['aws', 'amazon', 'cognito'] as const;

/** The codec of `infrastructure.auth` (built from the kit: this module stays free of io-ts at run time). */
export function authCodec({ c, t }: CodecKit): Codec<AuthIntent> {
  /** Cognito's prefix syntax (1-63 lowercase letters, digits, inner hyphens), without its reserved words. */
  const domainPrefix = new t.Type<string, string, unknown>(
    'a Cognito domain prefix',
    (u): u is string => typeof u === 'string' && /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/.test(u) && !RESERVED_DOMAIN_WORDS.some((w) => u.includes(w)),
    (u, ctx) => {
      if (typeof u !== 'string' || !/^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/.test(u)) {
        return t.failure<string>(u, ctx, c.problemMessage('FW_ERR_CONFIG_INVALID_VALUE', `expected a domain prefix of 1 to 63 lowercase letters, digits or "-" (not first or last), got ${c.describeValue(u)}`));
      }
      const words = RESERVED_DOMAIN_WORDS.filter((w) => u.includes(w));
      if (words.length) {
        return t.failure<string>(u, ctx, c.problemMessage('FW_ERR_CONFIG_RESERVED_WORD', `Cognito refuses domain prefixes containing ${words.map((w) => `"${w}"`).join(' or ')}, got ${c.describeValue(u)}. Choose a prefix without ${RESERVED_DOMAIN_WORDS.join(', ')}, or leave domainPrefix out to get a unique default`));
      }
      return t.success(u);
    },
    t.identity,
  );
  return c.struct<AuthIntent>('an auth intent', {
    selfSignUp: c.optional(c.boolean),
    mfa: c.optional(c.oneOf(['off', 'optional', 'required'] as const)),
    passwordMinLength: c.optional(c.integer(8, 99)),
    accessTokenValidityMinutes: c.optional(c.integer(5, 1440)),
    domainPrefix: c.optional(domainPrefix),
  });
}

/** The auth intent has one instance; its outputs are those of id `default`. */
export const AUTH_ID = 'default';

export interface AuthDefinition extends Required<AuthIntent> {
  /**
   * The user's `domainPrefix`, or the readable base of the default (`authDomainPrefixBase`), to which the deployed
   * stack appends `-` and 8 characters unique to the stack (`domainPrefixUnique`).
   */
  readonly domainPrefix: string;
  /** True when `domainPrefix` is the default base: the cloud interpreter appends a suffix unique per account and region. */
  readonly domainPrefixUnique: boolean;
  readonly userPoolName: string;
  /** Scope name → description, from the security config. */
  readonly scopes: Readonly<Record<string, string>>;
  readonly appClients: ResolvedSecurity['appClients'];
  /** Role name → role (its scopes), from the security config: deployed, one Cognito group each. */
  readonly roles: ResolvedSecurity['roles'];
  /** The scopes every signed-in user gets on top of their roles', from the security config (only with roles). */
  readonly everyUser?: ResolvedSecurity['everyUser'];
  /** Core's `preTokenGenerationFunctionName`: the trigger every user pool gets (the tenant claim; with roles, the scopes). */
  readonly preTokenGenerationFunctionName: string;
  /** Provider name → federated identity provider, from the security config. */
  readonly identityProviders: ResolvedSecurity['identityProviders'];
  /** The second factors users may use when `mfa` is not `off` (`security.mfa.factors`, TOTP by default). */
  readonly mfaFactors: readonly MfaFactor[];
}

/** The MFA mode: `security.mfa.mode`, else the intent's `mfa`, else optional; the two may not disagree. */
function mfaModeOf(auth: AuthIntent, security: ResolvedSecurity): AuthIntent['mfa'] & string {
  const declared = security.mfa?.mode;
  if (declared && auth.mfa && declared !== auth.mfa) {
    throw new ConfigError([
      {
        code: 'FW_ERR_CONFIG_INVALID_VALUE',
        path: 'infrastructure.auth.mfa',
        message: `says "${auth.mfa}" but security.mfa.mode says "${declared}"; keep one of them (security.mfa is the place for MFA: mode and factors)`,
      },
    ]);
  }
  return declared ?? auth.mfa ?? 'optional';
}

/** `infrastructure.auth`: the identity provider of the security config's scopes and app clients (present when set). */
export const authKind: IntentKindModule<AuthIntent, AuthDefinition | undefined, (typeof AUTH_OUTPUTS)[number], 'auth'> = {
  configKey: 'auth',
  codec: authCodec,
  outputs: AUTH_OUTPUTS,
  build: (auth, { project, stage, config }) =>
    auth
      ? {
          selfSignUp: auth.selfSignUp ?? false,
          mfa: mfaModeOf(auth, config.security),
          mfaFactors: config.security.mfa?.factors ?? ['totp'],
          identityProviders: config.security.identityProviders,
          passwordMinLength: auth.passwordMinLength ?? 12,
          accessTokenValidityMinutes: auth.accessTokenValidityMinutes ?? 60,
          domainPrefix: auth.domainPrefix ?? authDomainPrefixBase(project, stage),
          domainPrefixUnique: auth.domainPrefix === undefined,
          userPoolName: userPoolName(project, stage),
          scopes: config.security.scopes,
          appClients: config.security.appClients,
          roles: config.security.roles,
          ...(config.security.everyUser ? { everyUser: config.security.everyUser } : {}),
          preTokenGenerationFunctionName: preTokenGenerationFunctionName(project, stage),
        }
      : undefined,
  environment: (auth) => {
    const env: Record<string, KindValue<(typeof AUTH_OUTPUTS)[number]>> = {};
    if (!auth) return env;
    env[ENV.authIssuer] = outputRef(AUTH_ID, 'issuer');
    env[ENV.authAudience] = outputRef(AUTH_ID, 'audience');
    env[ENV.authUserPoolId] = outputRef(AUTH_ID, 'userPoolId');
    env[ENV.authResourceServer] = outputRef(AUTH_ID, 'resourceServer');
    env[ENV.authRoles] = fixedValue(Object.keys(auth.roles ?? {}).join(','));
    return env;
  },
  units: () => [],
};
