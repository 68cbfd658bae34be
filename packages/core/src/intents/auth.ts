import type { AuthIntent } from '../config/intents.js';
import type { ResolvedConfig } from '../config/resolve.js';
import { ENV } from '../environment/variables.js';
import { authDomainPrefixBase, preTokenGenerationFunctionName, userPoolName } from '../naming/unit-names.js';
import { outputRef, type IntentKindModule, type KindValue } from './intent-kind.js';

/** Outputs of the auth intent that reach functions. */
export const AUTH_OUTPUTS = ['issuer', 'audience', 'userPoolId', 'resourceServer'] as const;

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
  readonly appClients: ResolvedConfig['security']['appClients'];
  /** Role name → role (its scopes), from the security config: deployed, one Cognito group each. */
  readonly roles: ResolvedConfig['security']['roles'];
  /** Core's `preTokenGenerationFunctionName`: the trigger deployed when there are roles. */
  readonly preTokenGenerationFunctionName: string;
}

/** `infrastructure.auth`: the identity provider of the security config's scopes and app clients (present when set). */
export const authKind: IntentKindModule<AuthDefinition | undefined, (typeof AUTH_OUTPUTS)[number]> = {
  outputs: AUTH_OUTPUTS,
  build: ({ project, stage, config, infrastructure: { auth } }) =>
    auth
      ? {
          selfSignUp: auth.selfSignUp ?? false,
          mfa: auth.mfa ?? 'optional',
          passwordMinLength: auth.passwordMinLength ?? 12,
          accessTokenValidityMinutes: auth.accessTokenValidityMinutes ?? 60,
          domainPrefix: auth.domainPrefix ?? authDomainPrefixBase(project, stage),
          domainPrefixUnique: auth.domainPrefix === undefined,
          userPoolName: userPoolName(project, stage),
          scopes: config.security.scopes,
          appClients: config.security.appClients,
          roles: config.security.roles,
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
    return env;
  },
  units: () => [],
};
