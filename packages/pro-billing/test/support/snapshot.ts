// Stand-in until the package's snapshot lands: replaced by applySubscriptionChange.
import { sql, type Queryable, type Transaction } from '@framework/data';
import type { ProviderSubscription } from '../../src/index.js';

export const snapshotMigration = { name: 'test_snapshots', sql: 'CREATE TABLE test_snapshots (tenant_id text PRIMARY KEY, plan text, status text, seats int);' };

export async function applyToSnapshot(tx: Transaction, tenantId: string, subscription: ProviderSubscription): Promise<void> {
  await tx.query(sql`INSERT INTO test_snapshots (tenant_id, plan, status, seats) VALUES (${tenantId}, ${subscription.plan ?? null}, ${subscription.status}, ${subscription.seats})
    ON CONFLICT (tenant_id) DO UPDATE SET plan = excluded.plan, status = excluded.status, seats = excluded.seats`);
}

export async function readSnapshot(db: Queryable, tenantId: string): Promise<Record<string, unknown> | undefined> {
  return db.maybeOne(sql`SELECT plan, status, seats FROM test_snapshots WHERE tenant_id = ${tenantId}`);
}
