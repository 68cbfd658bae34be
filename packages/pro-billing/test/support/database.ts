import { Database } from '@framework/data';
import pg from 'pg';
import { BILLING_MIGRATION_SQL } from '../../src/index.js';
import { useEngine, type ENGINES } from './engines.js';

/**
 * Starts the engine for the suite, creates the billing tables once, and gives a `Database` on it; `fresh()` empties
 * the tables (call it in `beforeEach`).
 */
export function useBillingDatabase(engine: (typeof ENGINES)[number]) {
  let db: Database | undefined;
  let pool: pg.Pool | undefined;
  // Registered before the engine's hooks: mocha runs `after` hooks in order, and the clients must close first.
  after(async () => {
    await db?.end();
    await pool?.end();
  });
  const server = useEngine(engine);
  before(async function () {
    this.timeout(90_000);
    pool = new pg.Pool({ ...server().connection, max: 2 });
    await pool.query('DROP TABLE IF EXISTS fw_billing_provider_events, fw_billing_invoice_lines, fw_billing_invoices, fw_billing_credits, fw_billing_usage_aggregates, fw_billing_usage_events, fw_billing_subscription_changes, fw_billing_subscriptions');
    await pool.query(BILLING_MIGRATION_SQL.split('-- down')[0]!);
    db = new Database({ connection: server().connection, logger: { warn: () => undefined }, maxConnections: 4 });
  });
  return {
    db: (): Database => {
      if (!db) throw new Error('the database is not ready');
      return db;
    },
    pool: (): pg.Pool => {
      if (!pool) throw new Error('the database is not ready');
      return pool;
    },
    fresh: async (): Promise<void> => {
      await pool!.query('TRUNCATE fw_billing_provider_events, fw_billing_invoice_lines, fw_billing_invoices, fw_billing_credits, fw_billing_usage_aggregates, fw_billing_usage_events, fw_billing_subscription_changes, fw_billing_subscriptions');
    },
  };
}
