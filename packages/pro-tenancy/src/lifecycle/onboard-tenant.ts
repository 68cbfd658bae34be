import { sql, type Database } from '@framework/data';
import { getRootLogger } from '@framework/runtime';
import { TenancyHttpError } from '../errors.js';
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
  /** The first admin user: invited by the identity provider, or given a temporary password. */
  readonly admin: { readonly username: string; readonly email?: string; readonly temporaryPassword?: string };
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
  try {
    if (deps.auth) {
      const roles = input.adminRoles ?? ['admin'];
      // The admin belongs to the tenant: their tokens carry it (`custom:tenant_id`), which resolution reads.
      const base = { username: input.admin.username, ...(input.admin.email ? { email: input.admin.email } : {}), roles, tenant: tenant.id };
      const user = await deps.auth.createUser(input.admin.temporaryPassword ? { ...base, temporaryPassword: input.admin.temporaryPassword } : { ...base, invite: true as const });
      admin = createdUser = user.username;
    }
    await deps.quotas?.consume('seats', 1, { id: tenant.id });
  } catch (error) {
    // Undo in reverse, so a retry of the same onboarding starts from nothing.
    const log = (what: string) => (cleanup: unknown) => getRootLogger().error(`onboarding failed and ${what} could not be removed; remove it by hand`, { tenant: tenant.id, error: (cleanup as Error).message });
    if (createdUser !== undefined) await deps.auth?.deleteUser(createdUser).catch(log(`the admin user "${createdUser}"`));
    await deps.db.query(sql`DELETE FROM tenants WHERE id = ${tenant.id}`).catch(log('its tenants row'));
    throw error;
  }
  await deps.events?.send({ type: 'tenant.onboarded', tenantId: tenant.id, at: now(), name: tenant.name, tier: tenant.tier, admin });
  return { tenant, admin };
}
