import { DEV_PATHS, ENV } from '@framework/core/names';
import { AuthError, IdentityProviderError, InvalidUserInputError, NothingToConfirmError, UnknownAppClientError, UnknownRoleError, UserExistsError, UserNotFoundError } from '../errors.js';
import type { AuthUser, CreateUserInput, ListUsersOptions, UserAdmin, UserPage } from './auth-service.js';

/** What `DEV_PATHS.authAdmin` takes: one call of `UserAdmin`, by name, with its arguments. */
export interface DevUserAdminRequest {
  readonly action: keyof UserAdmin;
  readonly args: readonly unknown[];
}

/** The header that carries this run's `FW_DEV_AUTH_TOKEN`. */
export const DEV_AUTH_TOKEN_HEADER = 'x-fw-dev-auth-token';

/** An `AuthUser` as JSON (the date as ISO text). */
export type AuthUserJson = Omit<AuthUser, 'createdAt'> & { readonly createdAt?: string };

/**
 * `service.auth`'s user calls under `fw dev`: each is one request to the dev server's user admin endpoint, which runs
 * it on the dev issuer's user store (`.fw/dev/auth/users.json`), so a user created here signs in on the login page.
 * Errors come back by code and are thrown as the same classes as deployed.
 */
export class DevUserAdminClient implements UserAdmin {
  constructor(
    private readonly endpoint: string,
    private readonly secret: string | undefined,
  ) {}

  static fromEnvironment(env: Readonly<Record<string, string | undefined>> = process.env): DevUserAdminClient {
    return new DevUserAdminClient(env[ENV.devEndpoint]!, env[ENV.devAuthToken]);
  }

  async createUser(input: CreateUserInput): Promise<AuthUser> {
    return fromJson(await this.call<AuthUserJson>('createUser', [input]));
  }

  async getUser(username: string): Promise<AuthUser | undefined> {
    const user = await this.call<AuthUserJson | null>('getUser', [username]);
    return user ? fromJson(user) : undefined;
  }

  async listUsers(options?: ListUsersOptions): Promise<UserPage> {
    const page = await this.call<{ users: AuthUserJson[]; nextCursor?: string }>('listUsers', [options ?? {}]);
    return { users: page.users.map(fromJson), ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}) };
  }

  async disableUser(username: string): Promise<void> {
    await this.call('disableUser', [username]);
  }

  async enableUser(username: string): Promise<void> {
    await this.call('enableUser', [username]);
  }

  async deleteUser(username: string): Promise<void> {
    await this.call('deleteUser', [username]);
  }

  async setRoles(username: string, roles: readonly string[]): Promise<void> {
    await this.call('setRoles', [username, roles]);
  }

  async confirmUser(username: string): Promise<void> {
    await this.call('confirmUser', [username]);
  }

  async setTenant(username: string, tenant: string | undefined): Promise<void> {
    // JSON has no undefined: null says "no tenant".
    await this.call('setTenant', [username, tenant ?? null]);
  }

  async signOutEverywhere(username: string): Promise<void> {
    await this.call('signOutEverywhere', [username]);
  }

  private async call<T>(action: keyof UserAdmin, args: readonly unknown[]): Promise<T> {
    const url = `${this.endpoint.replace(/\/+$/, '')}${DEV_PATHS.authAdmin}`;
    let response: Response;
    try {
      response = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(this.secret ? { [DEV_AUTH_TOKEN_HEADER]: this.secret } : {}) },
        body: JSON.stringify({ action, args } satisfies DevUserAdminRequest),
      });
    } catch (error) {
      throw new IdentityProviderError(action, `the dev server at ${this.endpoint} could not be reached (${(error as Error).message}); is fw dev running?`, { cause: error });
    }
    const body = (await response.json().catch(() => ({}))) as { result?: T; error?: { code?: string; message?: string; roles?: string[]; declared?: string[]; username?: string; status?: string } };
    if (response.ok) return body.result as T;
    throw errorOf(action, response.status, body.error ?? {});
  }
}

/** The error class of a code the dev server answered with (its message kept). */
function errorOf(action: string, status: number, error: { code?: string; message?: string; roles?: string[]; declared?: string[]; username?: string; status?: string }): AuthError {
  const message = error.message ?? `HTTP ${status}`;
  switch (error.code) {
    case UnknownRoleError.CODE:
      return new UnknownRoleError(error.roles ?? [], error.declared ?? []);
    case UserNotFoundError.CODE:
      return new UserNotFoundError(error.username ?? '');
    case UserExistsError.CODE:
      return new UserExistsError(error.username ?? '');
    case NothingToConfirmError.CODE:
      return new NothingToConfirmError(error.username ?? '', error.status ?? 'UNKNOWN');
    case InvalidUserInputError.CODE:
      return new InvalidUserInputError(message.replace(/^Invalid input to service\.auth: /, '').replace(/\.$/, ''));
    case UnknownAppClientError.CODE:
      return new UnknownAppClientError(message);
    default:
      return new IdentityProviderError(action, `the dev server answered ${status} ${error.code ?? ''}: ${message}`);
  }
}

function fromJson(user: AuthUserJson): AuthUser {
  const { createdAt, ...rest } = user;
  return { ...rest, ...(createdAt ? { createdAt: new Date(createdAt) } : {}) };
}

/** An `AuthUser` as the dev server sends it. */
export function authUserToJson(user: AuthUser): AuthUserJson {
  const { createdAt, ...rest } = user;
  return { ...rest, ...(createdAt ? { createdAt: createdAt.toISOString() } : {}) };
}
