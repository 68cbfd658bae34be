import { FrameworkError } from '@framework/core/names';
import { HttpError } from '@framework/runtime';

/**
 * Errors of @framework-pro/tenancy. Two families, like the runtime's:
 * - HTTP answers (`TENANCY_HTTP_ERROR_CODES`): thrown by the middleware, each with its status and a code naming the
 *   problem; the body's message names the fix.
 * - `FW_ERR_TENANCY_*` (`TENANCY_ERROR_CODES`): the app's own mistakes (bad options), thrown at creation.
 *
 * README.md's error tables list every code; `test/errors.test.ts` keeps them in step.
 */
export const TENANCY_HTTP_ERROR_CODES = {
  TENANT_REQUIRED: { status: 400, meaning: 'The route requires a tenant and none of the configured sources (claim, header, subdomain, path) gave one.' },
  TENANT_CONFLICT: { status: 400, meaning: 'Two caller-chosen sources (header, subdomain, path) name different tenants.' },
  INVALID_TENANT_ID: { status: 400, meaning: 'A source gave a tenant id that does not match the id pattern (default: letters, digits, `-`, `_`, 1 to 64 characters).' },
  TENANT_NOT_CALLERS: { status: 403, meaning: "The tenant the request names (header, subdomain, path) is not the caller's: the token's tenant claim differs, or a user token carries no tenant claim." },
  TENANT_DISABLED: { status: 403, meaning: 'The tenant is disabled (offboarding started): `activeTenantMiddleware` refuses its requests.' },
  TENANT_NOT_FOUND: { status: 404, meaning: '`offboardTenant` (or `activeTenantMiddleware`) found no row of that id in the `tenants` table.' },
  TENANT_EXISTS: { status: 409, meaning: '`onboardTenant` was given an id the `tenants` table already has.' },
  ADMIN_NOT_FOUND: { status: 404, meaning: '`onboardTenant` with `admin.existing` named a user who does not exist.' },
  ADMIN_IN_TENANT: { status: 409, meaning: '`onboardTenant` with `admin.existing` named a user who belongs to a tenant already (a user belongs to one tenant).' },
  QUOTA_RATE_EXCEEDED: { status: 429, meaning: "The tenant made more requests in the minute than its tier's `requestsPerMinute`; sent with `Retry-After` (seconds)." },
  QUOTA_EXCEEDED: { status: 402, meaning: "A hard limit of the tenant's tier (storage bytes, seats, a custom counter) would be passed, and a higher tier allows more: upgrade." },
  QUOTA_LIMIT_REACHED: { status: 403, meaning: 'A hard limit would be passed and no declared tier allows more: free some (delete seats, files, items).' },
} as const;

export type TenancyHttpErrorCode = keyof typeof TENANCY_HTTP_ERROR_CODES;

export const TENANCY_ERROR_CODES = {
  FW_ERR_TENANCY_INVALID_OPTIONS: 'The options given to `tenantMiddleware`/`resolveTenant` are invalid (unknown source, a source without its setting, a bad pattern).',
  FW_ERR_TENANCY_OFFBOARDING_BLOCKED: "`offboardTenant` could not delete a tenant's rows because rows outside the tenant still reference them (foreign keys); nothing was deleted.",
  FW_ERR_TENANCY_INVALID_TIERS: '`defineTiers`/`createQuotas` got tiers or quotas that cannot work (no tier, a bad name, a limit that is not a whole number >= 0, an unknown default tier), or `consume` named a quota no tier declares.',
  FW_ERR_TENANCY_CHECK_FAILED: 'A table has a tenant_id column but no row-level security policy, RLS not enabled or not forced, or the app role can bypass RLS (missing, superuser, BYPASSRLS, table owner).',
  FW_ERR_TENANCY_STORAGE_KEY: 'A storage key outside the current tenant\'s prefix (`<tenant>/`), or any key outside a tenant, with tenant storage on.',
  FW_ERR_TENANCY_USAGE: 'A row-level security helper got an argument it cannot use (asAllTenants without a reason, a table or role name that is not a plain identifier), or `onboardTenant` with `admin.existing` got a user admin without `getUser`, `setTenant` and `setRoles`.',
} as const;

export type TenancyErrorCode = keyof typeof TENANCY_ERROR_CODES;

/** An HTTP answer of the tenancy middleware (400/403), with the shared error body. */
export class TenancyHttpError extends HttpError {
  constructor(code: TenancyHttpErrorCode, message: string, details?: unknown, headers?: Readonly<Record<string, string>>) {
    super(TENANCY_HTTP_ERROR_CODES[code].status, code, message, details, headers ? { headers } : undefined);
  }
}

/** A mistake in the app's tenancy options, found when the middleware is created. */
export class TenancyConfigError extends FrameworkError {
  constructor(code: TenancyErrorCode, message: string) {
    super(code, message);
  }
}

/** One thing `checkTenancy` found wrong. */
export interface TenancyProblem {
  /** `schema.table`, or `role <name>` for a role problem. */
  readonly subject: string;
  readonly problem: string;
  readonly fix: string;
}

/** `checkTenancy`/`assertTenancy` found tables or a role that would let one tenant see another's rows. */
export class TenancyCheckError extends FrameworkError {
  public readonly problems: readonly TenancyProblem[];
  constructor(problems: readonly TenancyProblem[]) {
    super('FW_ERR_TENANCY_CHECK_FAILED', `Tenant isolation is not enforced:\n${problems.map((p) => `  - ${p.subject}: ${p.problem} Fix: ${p.fix}`).join('\n')}`);
    this.problems = problems;
  }
}

/** A row-level security helper was called with an argument it cannot use. */
export class TenancyUsageError extends FrameworkError {
  constructor(message: string) {
    super('FW_ERR_TENANCY_USAGE', message);
  }
}

/** A storage key outside the current tenant's prefix (or used outside any tenant) with tenant storage on. */
export class TenantStorageKeyError extends FrameworkError {
  constructor(key: string, prefix: string | undefined) {
    super(
      'FW_ERR_TENANCY_STORAGE_KEY',
      prefix === undefined
        ? `Storage key ${JSON.stringify(key)} was used outside any tenant: run the code for a tenant (runWithTenant), or across tenants with asAllTenants(reason, fn).`
        : `Storage key ${JSON.stringify(key)} is outside the current tenant's prefix ${JSON.stringify(prefix)}: build keys with tenantKeyPrefix(tenant.id), or use asAllTenants(reason, fn) for cross-tenant work.`,
    );
  }
}
