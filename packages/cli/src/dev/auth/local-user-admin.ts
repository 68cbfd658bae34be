import { randomBytes, randomUUID } from 'node:crypto';
import type { AuthUser, CreateUserInput, ListUsersOptions, UserAdmin, UserPage } from '@framework/auth';
import { checkCreateUser, checkListOptions, checkRoles, checkTenantOrNone, checkUsername, InvalidUserInputError, NothingToConfirmError, UserExistsError, UserNotFoundError } from '@framework/auth/dev-server';
import { hashPassword, type StoredUser, type UserStore } from './user-store.js';

export interface LocalUserAdminOptions {
  /** The roles `config/security.ts` declares now (read on every call: fw dev reloads the config). */
  readonly declaredRoles: () => readonly string[];
  /** Where an invitation goes: no mail is sent; fw dev prints the temporary password (and puts Cognito's email in the local inbox when there is one). */
  readonly invitation: (user: { username: string; email?: string; tenant?: string; temporaryPassword: string }) => void;
}

/**
 * `service.auth`'s user calls on the dev issuer's user store, with the checks and errors of the Cognito implementation:
 * what the dev server's `/_dev/auth/admin` endpoint and `fw auth users` run. A user created here signs in on the login
 * page with the temporary password (the dev login page asks for no new password).
 */
export class LocalUserAdmin implements UserAdmin {
  constructor(
    private readonly store: UserStore,
    private readonly options: LocalUserAdminOptions,
  ) {}

  async createUser(input: CreateUserInput): Promise<AuthUser> {
    const user = checkCreateUser(input, this.options.declaredRoles());
    const temporaryPassword = user.temporaryPassword ?? generatedPassword();
    const stored: StoredUser = {
      sub: randomUUID(),
      username: user.username,
      ...(user.email ? { email: user.email } : {}),
      roles: user.roles,
      ...(user.tenant !== undefined ? { tenant: user.tenant } : {}),
      passwordHash: await hashPassword(temporaryPassword),
      seeded: false,
      status: 'FORCE_CHANGE_PASSWORD',
      createdAt: new Date().toISOString(),
    };
    if (!this.store.add(stored)) throw new UserExistsError(user.username);
    if (user.invite) this.options.invitation({ username: user.username, ...(user.email ? { email: user.email } : {}), ...(user.tenant !== undefined ? { tenant: user.tenant } : {}), temporaryPassword });
    return toAuthUser(stored);
  }

  async getUser(username: string): Promise<AuthUser | undefined> {
    const user = this.store.byUsername(checkUsername(username));
    return user ? toAuthUser(user) : undefined;
  }

  async listUsers(options?: ListUsersOptions): Promise<UserPage> {
    const { limit, cursor } = checkListOptions(options);
    const users = this.store.list();
    // The cursor names the last user of the previous page (by sub, which never changes): deleting users between pages
    // skips no one who remains.
    let start = 0;
    if (cursor !== undefined) {
      const after = decodeCursor(cursor);
      const index = users.findIndex((u) => u.sub === after);
      if (index === -1) throw new InvalidUserInputError('the cursor names a user that no longer exists; list again from the first page');
      start = index + 1;
    }
    const page = users.slice(start, start + limit);
    const more = start + limit < users.length;
    return { users: page.map(toAuthUser), ...(more ? { nextCursor: encodeCursor(page[page.length - 1]!.sub) } : {}) };
  }

  async confirmUser(username: string): Promise<void> {
    // Confirmed as the login page's code confirms (AdminConfirmSignUp): a user of another status is refused, as Cognito
    // refuses them, naming the status.
    let status: string | undefined;
    this.change(username, (u) => {
      status = u.status ?? 'CONFIRMED';
      return status === 'UNCONFIRMED' ? { ...u, status: 'CONFIRMED' } : u;
    });
    if (status !== 'UNCONFIRMED') throw new NothingToConfirmError(username, status!);
  }

  async disableUser(username: string): Promise<void> {
    this.change(username, (u) => ({ ...u, enabled: false }));
  }

  async enableUser(username: string): Promise<void> {
    this.change(username, ({ enabled: _enabled, ...u }) => u);
  }

  async deleteUser(username: string): Promise<void> {
    if (!this.store.remove(checkUsername(username))) throw new UserNotFoundError(username);
  }

  async setRoles(username: string, roles: readonly string[]): Promise<void> {
    checkUsername(username);
    const wanted = checkRoles(roles, this.options.declaredRoles());
    this.change(username, (u) => ({ ...u, roles: wanted }));
  }

  async setTenant(username: string, tenant: string | undefined): Promise<void> {
    checkUsername(username);
    const value = checkTenantOrNone(tenant);
    this.change(username, ({ tenant: _previous, ...u }) => (value === undefined ? u : { ...u, tenant: value }));
  }

  async signOutEverywhere(username: string): Promise<void> {
    this.change(username, (u) => ({ ...u, signedOutAt: Date.now() }));
  }

  private change(username: string, change: (user: StoredUser) => StoredUser): void {
    if (!this.store.update(checkUsername(username), change)) throw new UserNotFoundError(username);
  }
}

function toAuthUser(user: StoredUser): AuthUser {
  return {
    username: user.username,
    sub: user.sub,
    ...(user.email ? { email: user.email } : {}),
    roles: [...user.roles].sort(),
    ...(user.tenant !== undefined ? { tenant: user.tenant } : {}),
    enabled: user.enabled !== false,
    status: user.status ?? 'CONFIRMED',
    ...(user.createdAt ? { createdAt: new Date(user.createdAt) } : {}),
  };
}

function encodeCursor(sub: string): string {
  return Buffer.from(JSON.stringify({ after: sub }), 'utf8').toString('base64url');
}

function decodeCursor(cursor: string): string {
  try {
    const parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as { after?: unknown };
    if (typeof parsed.after === 'string') return parsed.after;
  } catch {
    // Answered below.
  }
  throw new InvalidUserInputError('the cursor is not a nextCursor of listUsers');
}

/** A temporary password that meets Cognito's default policy (upper, lower, digit, symbol). */
function generatedPassword(): string {
  return `Tmp-${randomBytes(9).toString('base64url')}7a`;
}
