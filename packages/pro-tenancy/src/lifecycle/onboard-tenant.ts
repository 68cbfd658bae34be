import { sql, type Database } from '@framework/data';
import { getRootLogger } from '@framework/runtime';
import { TenancyHttpError, TenancyUsageError } from '../errors.js';
import { DEFAULT_TENANT_ID_PATTERN } from '../resolution/tenant-resolution-options.js';
import type { Quotas } from '../tiers/quotas.js';
import type { TenantEventSink } from './tenant-events.js';
import type { TenantRow } from './tenants-table.js';

/** The user admin calls lifecycle uses: `service.auth` (`@framework/auth`) has them. */
export interface TenantUserAdmin {
  createUser(
    input:
      | { readonly username: string; readonly email?: string; readonly roles?: readonly string[]; readonly tenant?: string; readonly temporaryPassword: string }
      | { readonly username: string; readonly email?: string; readonly roles?: readonly string[]; readonly tenant?: string; readonly invite: true },
  ): Promise<{ readonly username: string }>;
  disableUser(username: string): Promise<void>;
  deleteUser(username: string): Promise<void>;
  /** For an admin who exists already (`admin.existing`): their tenant and roles are read, then set. */
  getUser?(username: string): Promise<{ readonly roles: readonly string[]; readonly tenant?: string } | undefined>;
  setTenant?(username: string, tenant: string | undefined): Promise<void>;
  setRoles?(username: string, roles: readonly string[]): Promise<void>;
}

/** What onboarding and offboarding work with: the app's clients, passed in (so tests and scripts pass their own). */
export interface TenantLifecycleDependencies {
  /** The app's database (`service.db`); the `tenants` table must exist (`TENANTS_TABLE_MIGRATION`). */
  readonly db: Pick<Database, 'one' | 'maybeOne' | 'many' | 'query' | 'transaction'>;
  /** `service.auth`: onboarding creates the first admin, offboarding disables and deletes the listed users. @default - no user calls */
  readonly auth?: TenantUserAdmin;
  /** The queue the app names for tenant events (`service.queues['tenant-events']`). @default - no events */
  readonly events?: TenantEventSink;
  /** The app's quotas: onboarding counts the admin's seat; offboarding forgets the counters. @default - none */
  readonly quotas?: Quotas;
}

export interface OnboardTenantInput {
  /** The tenant id (checked like resolution's default `idPattern`). */
  readonly id: string;
  /** Display name. */
  readonly name: string;
  /** @default - the column default, `'free'` */
  readonly tier?: string;
  /**
   * The first admin user: a new one, invited by the identity provider or given a temporary password; or, with
   * `existing: true`, a user who has an account already and belongs to no tenant (someone who signed up alone and now
   * creates their workspace): they are moved into the tenant and given the admin roles besides their own, and their
   * tokens carry the tenant from their next sign-in or refresh.
   */
  readonly admin: { readonly username: string; readonly email?: string; readonly temporaryPassword?: string; readonly existing?: false } | { readonly username: string; readonly existing: true };
  /**
   * Roles of the first admin (declared in `config/security.ts`).
   * @default ['admin']
   */
  readonly adminRoles?: readonly string[];
}

const now = () => new Date().toISOString();

/**
 * Onboards a tenant: its `tenants` row (tier), its first admin user of that tenant through `service.auth`, a seat counted, and a
 * `tenant.onboarded` event. A failure after the row was written removes the row again, so a retry starts clean.
 * Throws 400 `INVALID_TENANT_ID` and 409 `TENANT_EXISTS`.
 */
export async function onboardTenant(input: OnboardTenantInput, deps: TenantLifecycleDependencies): Promise<{ tenant: TenantRow; admin: string }> {
  if (typeof input.id !== 'string' || !DEFAULT_TENANT_ID_PATTERN.test(input.id)) {
    throw new TenancyHttpError('INVALID_TENANT_ID', `${JSON.stringify(input.id)} is not a valid tenant id; use letters, digits, "-" and "_" (1 to 64 characters, starting with a letter or digit)`);
  }
  const tenant = await deps.db.maybeOne<TenantRow>(
    input.tier === undefined
      ? sql`INSERT INTO tenants (id, name) VALUES (${input.id}, ${input.name}) ON CONFLICT (id) DO NOTHING RETURNING *`
      : sql`INSERT INTO tenants (id, name, tier) VALUES (${input.id}, ${input.name}, ${input.tier}) ON CONFLICT (id) DO NOTHING RETURNING *`,
  );
  if (!tenant) throw new TenancyHttpError('TENANT_EXISTS', `A tenant "${input.id}" exists already; choose another id`, { tenantId: input.id });
  let admin = input.admin.username;
  let createdUser: string | undefined;
  let movedUser: { username: string; roles: readonly string[] } | undefined;
  try {
    if (deps.auth && input.admin.existing === true) {
      const { getUser, setTenant, setRoles } = deps.auth;
      if (!getUser || !setTenant || !setRoles) throw new TenancyUsageError('onboardTenant with admin.existing needs a user admin with getUser, setTenant and setRoles: pass service.auth (it has them), or give your own those calls');
      const username = input.admin.username;
      const user = await getUser.call(deps.auth, username);
      if (!user) throw new TenancyHttpError('ADMIN_NOT_FOUND', `There is no user "${username}" to make the admin of tenant "${tenant.id}"; create the account first, or leave out existing to invite a new user`, { username });
      // A user of another tenant would leave it: that is a move, not an onboarding.
      if (user.tenant !== undefined) throw new TenancyHttpError('ADMIN_IN_TENANT', `User "${username}" belongs to tenant "${user.tenant}" already; a user belongs to one tenant (move them with service.auth.setTenant if that is meant)`, { username, tenant: user.tenant });
      await setTenant.call(deps.auth, username, tenant.id);
      movedUser = { username, roles: user.roles };
      await setRoles.call(deps.auth, username, [...new Set([...user.roles, ...(input.adminRoles ?? ['admin'])])]);
    } else if (deps.auth && input.admin.existing !== true) {
      const roles = input.adminRoles ?? ['admin'];
      // The admin belongs to the tenant: their tokens carry it (`custom:tenant_id`), which resolution reads.
      const { username, email, temporaryPassword } = input.admin;
      const base = { username, ...(email ? { email } : {}), roles, tenant: tenant.id };
      const user = await deps.auth.createUser(temporaryPassword ? { ...base, temporaryPassword } : { ...base, invite: true as const });
      admin = createdUser = user.username;
    }
    await deps.quotas?.consume('seats', 1, { id: tenant.id });
  } catch (error) {
    // Undo in reverse, so a retry of the same onboarding starts from nothing.
    const log = (what: string) => (cleanup: unknown) => getRootLogger().error(`onboarding failed and ${what} could not be removed; remove it by hand`, { tenant: tenant.id, error: (cleanup as Error).message });
    if (createdUser !== undefined) await deps.auth?.deleteUser(createdUser).catch(log(`the admin user "${createdUser}"`));
    // An existing user goes back to no tenant and their own roles.
    if (movedUser !== undefined) {
      const { username, roles } = movedUser;
      await deps.auth?.setRoles?.(username, roles).catch(log(`the admin roles of "${username}"`));
      await deps.auth?.setTenant?.(username, undefined).catch(log(`the tenant of "${username}"`));
    }
    await deps.db.query(sql`DELETE FROM tenants WHERE id = ${tenant.id}`).catch(log('its tenants row'));
    throw error;
  }
  await deps.events?.send({ type: 'tenant.onboarded', tenantId: tenant.id, at: now(), name: tenant.name, tier: tenant.tier, admin });
  return { tenant, admin };
}
