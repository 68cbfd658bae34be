import { createHash } from 'node:crypto';

/**
 * The key a usage push is deduplicated by at the provider: the same tenant, meter, period and sequence always give
 * the same key, so a retried push or a re-run period close is counted once. Hashed (Stripe's meter event
 * `identifier` is limited in length, tenant and meter names are not) and prefixed so it reads as ours in the
 * provider's dashboard.
 */
export function usageIdempotencyKey(tenantId: string, meter: string, periodStart: Date, sequence: number): string {
  // JSON keeps the parts apart: no choice of tenant or meter name can make two different tuples hash the same.
  const tuple = JSON.stringify([tenantId, meter, periodStart.toISOString(), sequence]);
  return `fwu_${createHash('sha256').update(tuple).digest('hex').slice(0, 40)}`;
}
