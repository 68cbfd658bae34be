import { sql, type Queryable } from '@framework/data';
import { getRootLogger, putMetric, runWithTenant, type Service, type TaskContext, type TaskFn, type TenantInfo } from '@framework/runtime';
import { TenancyUsageError } from '../errors.js';
import { DEFAULT_TENANT_ID_PATTERN } from '../resolution/tenant-resolution-options.js';

/** The tenants a job runs for: ids, or a function answering them when the job starts (`activeTenants(db)`). */
export type TenantList = readonly string[] | (() => Promise<readonly string[]> | readonly string[]);

export interface ForEachTenantOptions {
  /** The tenants to run for, read once per call. */
  readonly tenants: TenantList;
  /**
   * Tenants run at the same time. Keep it at or under the database pool's size (2 in a deployed function).
   * @default 1
   */
  readonly concurrency?: number;
  /**
   * Names the job in the failure log lines and the `TenantJobFailures` metric (dimension `job`).
   * @default 'per-tenant job'
   */
  readonly name?: string;
}

export interface TenantJobFailure {
  readonly tenant: string;
  readonly error: { readonly name: string; readonly message: string };
}

/** What a fan-out did: every tenant is in exactly one of the two lists. */
export interface ForEachTenantResult {
  readonly succeeded: readonly string[];
  readonly failed: readonly TenantJobFailure[];
}

/**
 * Runs `fn` once per tenant, each run as that tenant (`currentTenant()`: its statements see its rows only, its log
 * lines, metrics, queue messages and storage keys are its). A tenant's failure is that tenant's: it is logged (an
 * `error` line carrying the tenant), counted (metric `TenantJobFailures`) and listed in the result, and the other
 * tenants run all the same. Nothing is rethrown: a scheduler retry would run every tenant again. Only a failure to
 * list the tenants rejects (then no tenant ran).
 */
export async function forEachTenant(fn: (tenant: TenantInfo) => Promise<unknown> | unknown, options: ForEachTenantOptions): Promise<ForEachTenantResult> {
  if (typeof fn !== 'function') throw new TenancyUsageError('forEachTenant(fn, { tenants }) needs the function to run for each tenant.');
  const concurrency = options?.concurrency ?? 1;
  if (!Number.isInteger(concurrency) || concurrency < 1) throw new TenancyUsageError(`forEachTenant: concurrency must be a whole number >= 1, got ${String(concurrency)}.`);
  const name = options.name ?? 'per-tenant job';
  const listed = typeof options.tenants === 'function' ? await runWithTenant(undefined, options.tenants) : options.tenants;
  if (!Array.isArray(listed)) throw new TenancyUsageError('forEachTenant: `tenants` must be an array of tenant ids, or a function answering one (activeTenants(db)).');
  const tenants = [...new Set(listed as readonly string[])];

  const succeeded: string[] = [];
  const failed: TenantJobFailure[] = [];
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < tenants.length) {
      const tenant = tenants[next++]!;
      if (typeof tenant !== 'string' || !DEFAULT_TENANT_ID_PATTERN.test(tenant)) {
        failed.push({ tenant: String(tenant), error: { name: 'TenancyUsageError', message: 'not a valid tenant id' } });
        getRootLogger().error('per-tenant job skipped an invalid tenant id', { job: name, tenant: String(tenant).slice(0, 100) });
        continue;
      }
      await runWithTenant({ id: tenant }, async () => {
        try {
          await fn({ id: tenant });
          succeeded.push(tenant);
        } catch (error) {
          failed.push({ tenant, error: error instanceof Error ? { name: error.name, message: error.message } : { name: 'Error', message: String(error) } });
          // Inside the tenant: the line and the metric carry it.
          getRootLogger().error('per-tenant job failed for a tenant', { job: name, error });
          putMetric('TenantJobFailures', 1, { dimensions: { job: name } });
        }
      });
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, tenants.length) }, worker));
  return { succeeded, failed };
}

/** `ctx` of one tenant's run inside `perTenant`: the task's, with the tenant. */
export type PerTenantTaskContext<TEvent> = TaskContext<TEvent> & { readonly tenant: TenantInfo };

/**
 * A cron (or any task) fanned out per tenant: `taskHandler(perTenant(fn, { tenants: activeTenants(db) }))` runs
 * `fn(event, ctx, service)` once per tenant, with `ctx.tenant` and `currentTenant()` set, failures isolated as in
 * `forEachTenant`, whose result the task returns.
 */
export function perTenant<TEvent>(
  fn: (event: TEvent, ctx: PerTenantTaskContext<TEvent>, service: Service) => Promise<unknown> | unknown,
  options: ForEachTenantOptions,
): TaskFn<TEvent, ForEachTenantResult> {
  if (typeof fn !== 'function') throw new TenancyUsageError('perTenant(fn, { tenants }) needs the function to run for each tenant.');
  return (event, ctx, service) =>
    forEachTenant((tenant) => fn(event, Object.create(ctx, { tenant: { value: tenant, enumerable: true } }) as PerTenantTaskContext<TEvent>, service), options);
}

/**
 * The active tenants of the `tenants` table, in id order: the usual `tenants` of a fan-out. `db` may be a function
 * answering it (`() => getService().db`), read when the job starts.
 */
export function activeTenants(db: Queryable | (() => Queryable)): () => Promise<string[]> {
  return async () => {
    const database = typeof db === 'function' ? db() : db;
    const rows = await database.many<{ id: string }>(sql`SELECT id FROM tenants WHERE status = 'active' ORDER BY id`);
    return rows.map((row) => row.id);
  };
}
