import { DEV_OAUTH_PATHS, ENV, localAppClientId } from '@framework/core/names';
import { AuthNotConfiguredError, UnknownAppClientError } from '../errors.js';
import type { AuthService, UserAdmin } from './auth-service.js';
import { CognitoUserAdmin, type CognitoUserAdminOptions } from './cognito-user-admin.js';
import { DevUserAdminClient } from './dev-user-admin-client.js';
import { declaredRolesFromEnv } from './input-checks.js';
import { MachineTokens, type MachineTokensOptions, type TokenEndpoint } from './machine-tokens.js';

export interface CreateAuthServiceOptions {
  /** @default process.env */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** SDK client options of the Cognito implementation (an emulator's endpoint in tests). @default - none */
  readonly cognito?: CognitoUserAdminOptions['clientConfig'];
  /** Clock and fetch of the machine-token cache (tests). @default - Date.now and fetch */
  readonly machineTokens?: Pick<MachineTokensOptions, 'now' | 'fetch'>;
}

/**
 * The `service.auth` of the function's environment: under `fw dev` (`FW_DEV_ENDPOINT` set) the dev issuer's user store
 * and token endpoint; deployed, the user pool `FW_AUTH_USER_POOL_ID`. Throws `AuthNotConfiguredError` without the
 * auth intent's variables.
 */
export function createAuthService(options: CreateAuthServiceOptions = {}): AuthService {
  const env = options.env ?? process.env;
  const poolId = env[ENV.authUserPoolId];
  if (!poolId) throw new AuthNotConfiguredError(`service.auth needs ${ENV.authUserPoolId}, which functions get when the app has the auth intent`);
  const clientIds = (env[ENV.authAudience] ?? '').split(',').filter(Boolean);
  const resourceServer = env[ENV.authResourceServer] || undefined;
  let users: UserAdmin;
  let resolve: (clientName: string) => Promise<TokenEndpoint>;
  if (env[ENV.devEndpoint]) {
    users = DevUserAdminClient.fromEnvironment(env);
    const issuer = (env[ENV.authIssuer] ?? env[ENV.devEndpoint]!).replace(/\/+$/, '');
    resolve = async (clientName) => {
      // fw dev's client ids are derived from the names (core's `localAppClientId`); its token endpoint checks no secret.
      const clientId = localAppClientId(env[ENV.project] ?? '', env[ENV.stage] ?? '', clientName);
      if (!clientIds.includes(clientId)) throw new UnknownAppClientError(`app client "${clientName}" is not declared in config/security.ts`);
      return { tokenUrl: `${issuer}${DEV_OAUTH_PATHS.token}`, clientId };
    };
  } else {
    const cognito = new CognitoUserAdmin({ userPoolId: poolId, declaredRoles: declaredRolesFromEnv(env), clientIds, ...(options.cognito ? { clientConfig: options.cognito } : {}) });
    users = cognito;
    resolve = (clientName) => cognito.tokenEndpoint(clientName);
  }
  const tokens = new MachineTokens({ resolve, ...(resourceServer ? { resourceServer } : {}), ...options.machineTokens });
  return {
    createUser: (input) => users.createUser(input),
    getUser: (username) => users.getUser(username),
    listUsers: (o) => users.listUsers(o),
    confirmUser: (username) => users.confirmUser(username),
    disableUser: (username) => users.disableUser(username),
    enableUser: (username) => users.enableUser(username),
    deleteUser: (username) => users.deleteUser(username),
    setRoles: (username, roles) => users.setRoles(username, roles),
    setTenant: (username, tenant) => users.setTenant(username, tenant),
    signOutEverywhere: (username) => users.signOutEverywhere(username),
    machineToken: (clientName, scopes) => tokens.token(clientName, scopes),
  };
}
