import { ENV, TENANT_ID_PATTERN } from '@framework/core/names';
import { InvalidUserInputError, UnknownRoleError } from '../errors.js';
import { MAX_USERS_PER_PAGE, type CreateUserInput, type ListUsersOptions } from './auth-service.js';

/** Cognito's username rule: 1 to 128 letters, marks, symbols, digits or punctuation (no spaces or control characters). */
const USERNAME = /^[\p{L}\p{M}\p{S}\p{N}\p{P}]{1,128}$/u;
const EMAIL = /^[^\s@]+@[^\s@]+$/;

/** The roles `config/security.ts` declares, as infra and fw dev pass them (`FW_AUTH_ROLES`, comma-separated). */
export function declaredRolesFromEnv(env: Readonly<Record<string, string | undefined>> = process.env): string[] {
  return (env[ENV.authRoles] ?? '').split(',').filter(Boolean);
}

export function checkUsername(username: unknown): string {
  if (typeof username !== 'string' || !USERNAME.test(username)) {
    throw new InvalidUserInputError(`expected a username of 1 to 128 letters, digits, symbols or punctuation (no spaces), got ${JSON.stringify(username)}`);
  }
  return username;
}

/** A tenant id as every part of the framework takes it (core's `TENANT_ID_PATTERN`). */
export function checkTenant(tenant: unknown): string {
  if (typeof tenant !== 'string' || !TENANT_ID_PATTERN.test(tenant)) {
    throw new InvalidUserInputError(`expected tenant to be a tenant id of 1 to 64 letters, digits, "-" or "_" (starting with a letter or digit), got ${JSON.stringify(tenant)}`);
  }
  return tenant;
}

/** `setTenant`'s tenant: a tenant id, or none (`undefined`; `null` as it arrives in JSON). */
export function checkTenantOrNone(tenant: unknown): string | undefined {
  return tenant === undefined || tenant === null ? undefined : checkTenant(tenant);
}

/** The roles, each declared (`UnknownRoleError` names the declared ones), without duplicates, sorted. */
export function checkRoles(roles: unknown, declared: readonly string[]): string[] {
  if (!Array.isArray(roles) || !roles.every((r): r is string => typeof r === 'string')) {
    throw new InvalidUserInputError(`expected roles to be a list of role names, got ${JSON.stringify(roles)}`);
  }
  const unknown = roles.filter((r) => !declared.includes(r));
  if (unknown.length) throw new UnknownRoleError([...new Set(unknown)], declared);
  return [...new Set(roles)].sort();
}

/** A checked `createUser` input: exactly one of `temporaryPassword` and `invite: true`. */
export function checkCreateUser(input: unknown, declared: readonly string[]): { username: string; email?: string; roles: string[]; tenant?: string; temporaryPassword?: string; invite: boolean } {
  if (typeof input !== 'object' || input === null) throw new InvalidUserInputError('expected createUser({ username, email?, roles?, tenant?, temporaryPassword | invite: true })');
  const { username, email, roles, tenant, temporaryPassword, invite } = input as Partial<Record<keyof CreateUserInput, unknown>>;
  checkUsername(username);
  if (tenant !== undefined) checkTenant(tenant);
  if (email !== undefined && (typeof email !== 'string' || !EMAIL.test(email))) throw new InvalidUserInputError(`expected email to be an email address, got ${JSON.stringify(email)}`);
  if (invite !== undefined && invite !== true) throw new InvalidUserInputError('invite takes only true (leave it out to give a temporaryPassword instead)');
  if (temporaryPassword !== undefined && (typeof temporaryPassword !== 'string' || temporaryPassword.length < 6 || temporaryPassword.length > 256)) {
    throw new InvalidUserInputError('expected temporaryPassword to be a string of 6 to 256 characters (the pool\'s password policy may ask for more)');
  }
  if ((temporaryPassword === undefined) === (invite === undefined)) {
    throw new InvalidUserInputError('give exactly one of temporaryPassword (you hand it to the user; no message is sent) and invite: true (the identity provider sends an invitation with a generated temporary password)');
  }
  // A username that is an email address (the deployed pool signs users in by email) is the user's email too.
  const address = (email as string | undefined) ?? (EMAIL.test(username as string) ? (username as string) : undefined);
  if (invite && address === undefined) throw new InvalidUserInputError('invite: true needs the user\'s email (the invitation is sent there)');
  return {
    username: username as string,
    ...(address !== undefined ? { email: address } : {}),
    roles: checkRoles(roles ?? [], declared),
    ...(tenant !== undefined ? { tenant: tenant as string } : {}),
    ...(temporaryPassword !== undefined ? { temporaryPassword: temporaryPassword as string } : {}),
    invite: invite === true,
  };
}

/** The page size of `listUsers` (1 to 60, default 60) and its cursor. */
export function checkListOptions(options: unknown): { limit: number; cursor?: string } {
  const { limit, cursor } = (options ?? {}) as ListUsersOptions;
  const size = limit ?? MAX_USERS_PER_PAGE;
  if (!Number.isInteger(size) || size < 1 || size > MAX_USERS_PER_PAGE) throw new InvalidUserInputError(`expected limit to be a whole number from 1 to ${MAX_USERS_PER_PAGE}, got ${JSON.stringify(limit)}`);
  if (cursor !== undefined && (typeof cursor !== 'string' || cursor === '')) throw new InvalidUserInputError('expected cursor to be the nextCursor of the previous page');
  return { limit: size, ...(cursor !== undefined ? { cursor } : {}) };
}
