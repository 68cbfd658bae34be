import type { CognitoIdentityProviderClient, CognitoIdentityProviderClientConfig, UserType } from '@aws-sdk/client-cognito-identity-provider';
import { TENANT_CLAIM } from '@framework/core/names';
import { IdentityProviderError, InvalidUserInputError, NothingToConfirmError, UnknownAppClientError, UserExistsError, UserNotFoundError } from '../errors.js';
import type { AuthUser, CreateUserInput, ListUsersOptions, UserAdmin, UserPage, UserStatus } from './auth-service.js';
import { checkCreateUser, checkListOptions, checkRoles, checkTenantOrNone, checkUsername } from './input-checks.js';
import type { TokenEndpoint } from './machine-tokens.js';

type CognitoModule = typeof import('@aws-sdk/client-cognito-identity-provider');

export interface CognitoUserAdminOptions {
  readonly userPoolId: string;
  /** The roles of `config/security.ts` (each a group of the pool). */
  readonly declaredRoles: readonly string[];
  /** The app clients' ids (`FW_AUTH_AUDIENCE`): `tokenEndpoint` finds a client among them by name. @default [] */
  readonly clientIds?: readonly string[];
  /** Options of the SDK client (region, endpoint, credentials). @default - the region of the pool id */
  readonly clientConfig?: CognitoIdentityProviderClientConfig;
}

/** At most this many `AdminListGroupsForUser` calls at once while listing a page (Cognito's admin APIs are throttled). */
const GROUP_LOOKUPS_AT_ONCE = 5;

/**
 * `service.auth` on a Cognito user pool, with `@aws-sdk/client-cognito-identity-provider` (loaded on first use, so a
 * function that never calls it does not pay for it). Roles are the pool's groups.
 */
export class CognitoUserAdmin implements UserAdmin {
  private sdk?: Promise<{ mod: CognitoModule; client: CognitoIdentityProviderClient }>;
  private readonly clients = new Map<string, Promise<TokenEndpoint>>();
  private domain?: Promise<string>;

  constructor(private readonly options: CognitoUserAdminOptions) {}

  async createUser(input: CreateUserInput): Promise<AuthUser> {
    const user = checkCreateUser(input, this.options.declaredRoles);
    const email = user.email;
    // The tenant is a custom attribute only admin calls write (infra gives app clients no write access to it), so a
    // user cannot move themselves to another tenant.
    const attributes = [
      ...(email ? [{ Name: 'email', Value: email }, { Name: 'email_verified', Value: 'true' }] : []),
      ...(user.tenant !== undefined ? [{ Name: TENANT_CLAIM, Value: user.tenant }] : []),
    ];
    const { mod, client } = await this.cognito();
    const created = await this.call('createUser', user.username, () =>
      client.send(
        new mod.AdminCreateUserCommand({
          UserPoolId: this.options.userPoolId,
          Username: user.username,
          ...(attributes.length ? { UserAttributes: attributes } : {}),
          // A temporary password given by the caller: no message (the caller hands it over). An invitation: Cognito
          // generates the password and sends its invitation message by email.
          ...(user.temporaryPassword !== undefined ? { TemporaryPassword: user.temporaryPassword, MessageAction: 'SUPPRESS' } : { DesiredDeliveryMediums: ['EMAIL'] }),
        }),
      ),
    );
    const name = created.User?.Username ?? user.username;
    for (const role of user.roles) await this.call('createUser', user.username, () => client.send(new mod.AdminAddUserToGroupCommand({ UserPoolId: this.options.userPoolId, Username: name, GroupName: role })));
    return toAuthUser(created.User ?? {}, user.roles);
  }

  async getUser(username: string): Promise<AuthUser | undefined> {
    checkUsername(username);
    const { mod, client } = await this.cognito();
    try {
      const found = await this.call('getUser', username, () => client.send(new mod.AdminGetUserCommand({ UserPoolId: this.options.userPoolId, Username: username })));
      return toAuthUser({ Username: found.Username, Attributes: found.UserAttributes, Enabled: found.Enabled, UserStatus: found.UserStatus, UserCreateDate: found.UserCreateDate }, await this.groupsOf(found.Username ?? username));
    } catch (error) {
      if (error instanceof UserNotFoundError) return undefined;
      throw error;
    }
  }

  async listUsers(options?: ListUsersOptions): Promise<UserPage> {
    const { limit, cursor } = checkListOptions(options);
    const { mod, client } = await this.cognito();
    const page = await this.call('listUsers', undefined, () => client.send(new mod.ListUsersCommand({ UserPoolId: this.options.userPoolId, Limit: limit, ...(cursor ? { PaginationToken: cursor } : {}) })));
    const found = page.Users ?? [];
    const users: AuthUser[] = new Array(found.length);
    let next = 0;
    const worker = async () => {
      while (next < found.length) {
        const index = next++;
        users[index] = toAuthUser(found[index]!, await this.groupsOf(found[index]!.Username ?? ''));
      }
    };
    await Promise.all(Array.from({ length: Math.min(GROUP_LOOKUPS_AT_ONCE, found.length) }, worker));
    return { users, ...(page.PaginationToken ? { nextCursor: page.PaginationToken } : {}) };
  }

  async confirmUser(username: string): Promise<void> {
    checkUsername(username);
    const { mod, client } = await this.cognito();
    try {
      await client.send(new mod.AdminConfirmSignUpCommand({ UserPoolId: this.options.userPoolId, Username: username }));
    } catch (error) {
      // Cognito refuses a user of another status with NotAuthorizedException, naming the status in its message.
      const status = (error as { name?: string }).name === 'NotAuthorizedException' ? /Current status is (\w+)/.exec((error as Error).message)?.[1] : undefined;
      throw status ? new NothingToConfirmError(username, status, { cause: error }) : translate('confirmUser', username, error);
    }
  }

  async disableUser(username: string): Promise<void> {
    const { mod, client } = await this.cognito();
    await this.call('disableUser', checkUsername(username), () => client.send(new mod.AdminDisableUserCommand({ UserPoolId: this.options.userPoolId, Username: username })));
  }

  async enableUser(username: string): Promise<void> {
    const { mod, client } = await this.cognito();
    await this.call('enableUser', checkUsername(username), () => client.send(new mod.AdminEnableUserCommand({ UserPoolId: this.options.userPoolId, Username: username })));
  }

  async deleteUser(username: string): Promise<void> {
    const { mod, client } = await this.cognito();
    await this.call('deleteUser', checkUsername(username), () => client.send(new mod.AdminDeleteUserCommand({ UserPoolId: this.options.userPoolId, Username: username })));
  }

  async setRoles(username: string, roles: readonly string[]): Promise<void> {
    checkUsername(username);
    const wanted = checkRoles(roles, this.options.declaredRoles);
    const { mod, client } = await this.cognito();
    // Group calls name the user by Cognito's own username (the sub in a pool that signs in by email), which every
    // implementation resolves the same way.
    const found = await this.call('setRoles', username, () => client.send(new mod.AdminGetUserCommand({ UserPoolId: this.options.userPoolId, Username: username })));
    const name = found.Username ?? username;
    // Only the groups that are declared roles are managed: a group the app does not know (a federated provider's) stays.
    const current = (await this.groupsOf(name, true)).filter((g) => this.options.declaredRoles.includes(g));
    for (const role of wanted.filter((r) => !current.includes(r))) {
      await this.call('setRoles', username, () => client.send(new mod.AdminAddUserToGroupCommand({ UserPoolId: this.options.userPoolId, Username: name, GroupName: role })));
    }
    for (const role of current.filter((r) => !wanted.includes(r))) {
      await this.call('setRoles', username, () => client.send(new mod.AdminRemoveUserFromGroupCommand({ UserPoolId: this.options.userPoolId, Username: name, GroupName: role })));
    }
  }

  async setTenant(username: string, tenant: string | undefined): Promise<void> {
    checkUsername(username);
    const value = checkTenantOrNone(tenant);
    const { mod, client } = await this.cognito();
    const pool = this.options.userPoolId;
    // IAM-authorized admin calls: infra lets no app client write the attribute, so only these change a user's tenant.
    if (value === undefined) {
      await this.call('setTenant', username, () => client.send(new mod.AdminDeleteUserAttributesCommand({ UserPoolId: pool, Username: username, UserAttributeNames: [TENANT_CLAIM] })));
    } else {
      await this.call('setTenant', username, () => client.send(new mod.AdminUpdateUserAttributesCommand({ UserPoolId: pool, Username: username, UserAttributes: [{ Name: TENANT_CLAIM, Value: value }] })));
    }
  }

  async signOutEverywhere(username: string): Promise<void> {
    const { mod, client } = await this.cognito();
    await this.call('signOutEverywhere', checkUsername(username), () => client.send(new mod.AdminUserGlobalSignOutCommand({ UserPoolId: this.options.userPoolId, Username: username })));
  }

  /**
   * The token endpoint and credentials of app client `clientName`, read from Cognito at first use and kept: the client
   * among `clientIds` whose `ClientName` is the name (`DescribeUserPoolClient` gives its secret, so no secret sits in
   * a variable or a second store), and the pool's domain (`DescribeUserPool`).
   */
  tokenEndpoint(clientName: string): Promise<TokenEndpoint> {
    let endpoint = this.clients.get(clientName);
    if (!endpoint) {
      endpoint = this.describeClient(clientName);
      this.clients.set(clientName, endpoint);
      // A failure is not kept: the next call asks again.
      endpoint.catch(() => this.clients.delete(clientName));
    }
    return endpoint;
  }

  private async describeClient(clientName: string): Promise<TokenEndpoint> {
    const { mod, client } = await this.cognito();
    for (const clientId of this.options.clientIds ?? []) {
      const described = await this.call('machineToken', undefined, () => client.send(new mod.DescribeUserPoolClientCommand({ UserPoolId: this.options.userPoolId, ClientId: clientId })));
      const found = described.UserPoolClient;
      if (found?.ClientName !== clientName) continue;
      if (!(found.AllowedOAuthFlows ?? []).includes('client_credentials')) {
        throw new UnknownAppClientError(`app client "${clientName}" has no client_credentials flow`);
      }
      const tokenUrl = `${await this.poolDomain()}/oauth2/token`;
      return { tokenUrl, clientId, ...(found.ClientSecret ? { clientSecret: found.ClientSecret } : {}) };
    }
    throw new UnknownAppClientError(`the user pool has no app client named "${clientName}" among this function's clients`);
  }

  /** `https://<custom domain>` or `https://<prefix>.auth.<region>.amazoncognito.com`. */
  private poolDomain(): Promise<string> {
    this.domain ??= (async () => {
      const { mod, client } = await this.cognito();
      const pool = (await this.call('machineToken', undefined, () => client.send(new mod.DescribeUserPoolCommand({ UserPoolId: this.options.userPoolId })))).UserPool;
      if (pool?.CustomDomain) return `https://${pool.CustomDomain}`;
      if (!pool?.Domain) throw new IdentityProviderError('machineToken', `user pool ${this.options.userPoolId} has no domain, so no token endpoint`);
      return `https://${pool.Domain}.auth.${regionOfPool(this.options.userPoolId)}.amazoncognito.com`;
    })();
    this.domain.catch(() => (this.domain = undefined));
    return this.domain;
  }

  private async groupsOf(username: string, failIfMissing = false): Promise<string[]> {
    const { mod, client } = await this.cognito();
    const groups: string[] = [];
    let token: string | undefined;
    try {
      do {
        const page = await this.call('getUser', username, () => client.send(new mod.AdminListGroupsForUserCommand({ UserPoolId: this.options.userPoolId, Username: username, ...(token ? { NextToken: token } : {}) })));
        groups.push(...(page.Groups ?? []).map((g) => g.GroupName ?? '').filter(Boolean));
        token = page.NextToken;
      } while (token);
    } catch (error) {
      if (error instanceof UserNotFoundError && !failIfMissing) return [];
      throw error;
    }
    return groups.sort();
  }

  private cognito(): Promise<{ mod: CognitoModule; client: CognitoIdentityProviderClient }> {
    this.sdk ??= import('@aws-sdk/client-cognito-identity-provider').then((mod) => ({
      mod,
      client: new mod.CognitoIdentityProviderClient({ region: regionOfPool(this.options.userPoolId), ...this.options.clientConfig }),
    }));
    return this.sdk;
  }

  /** Runs a Cognito call, its errors in this package's words. */
  private async call<T>(operation: string, username: string | undefined, send: () => Promise<T>): Promise<T> {
    try {
      return await send();
    } catch (error) {
      throw translate(operation, username, error);
    }
  }
}

function translate(operation: string, username: string | undefined, error: unknown): Error {
  const name = (error as { name?: string }).name;
  const message = (error as Error).message;
  if (name === 'UserNotFoundException' && username !== undefined) return new UserNotFoundError(username, { cause: error });
  if (name === 'UsernameExistsException' && username !== undefined) return new UserExistsError(username, { cause: error });
  if (name === 'InvalidPasswordException' || name === 'InvalidParameterException') return new InvalidUserInputError(`Cognito refused it (${name}: ${message})`, { cause: error });
  return new IdentityProviderError(operation, `${name ?? 'Error'}: ${message}`, { cause: error });
}

/** `eu-west-1_AbC` → `eu-west-1`. */
function regionOfPool(userPoolId: string): string | undefined {
  const region = userPoolId.split('_')[0];
  return region && /^[a-z]{2}(-[a-z]+)+-\d$/.test(region) ? region : undefined;
}

const STATUSES: readonly UserStatus[] = ['CONFIRMED', 'FORCE_CHANGE_PASSWORD', 'UNCONFIRMED', 'RESET_REQUIRED', 'ARCHIVED', 'COMPROMISED', 'EXTERNAL_PROVIDER'];

function toAuthUser(user: UserType, roles: readonly string[]): AuthUser {
  const attribute = (name: string) => user.Attributes?.find((a) => a.Name === name)?.Value;
  const email = attribute('email');
  const tenant = attribute(TENANT_CLAIM);
  const status = STATUSES.find((s) => s === user.UserStatus) ?? 'UNKNOWN';
  // A pool that signs in by email keeps the sub as Cognito's username: the user's name is then their email, the name
  // they sign in with and every call here takes.
  const username = user.Username && user.Username === attribute('sub') && email ? email : user.Username ?? '';
  return {
    username,
    sub: attribute('sub') ?? '',
    ...(email ? { email } : {}),
    roles: [...roles].sort(),
    ...(tenant ? { tenant } : {}),
    enabled: user.Enabled ?? true,
    status,
    ...(user.UserCreateDate ? { createdAt: new Date(user.UserCreateDate) } : {}),
  };
}
