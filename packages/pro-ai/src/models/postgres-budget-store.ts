import { sql, type Queryable } from '@framework/data';
import type { BudgetStore } from './token-budget.js';

/**
 * Budget counters in the app's PostgreSQL (`fw_ai_token_usage`, from `aiStateMigrationSql()`), shared by every
 * function of the app: one row per subject and window, added to with an upsert (concurrent calls never lose a count).
 */
export class PostgresBudgetStore implements BudgetStore {
  constructor(private readonly db: Queryable) {}

  public async used(subject: string, windowStart: Date): Promise<number> {
    const row = await this.db.maybeOne<{ tokens: string }>(sql`SELECT tokens FROM fw_ai_token_usage WHERE subject = ${subject} AND window_start = ${windowStart}`);
    return row ? Number(row.tokens) : 0;
  }

  public async add(subject: string, windowStart: Date, tokens: number): Promise<void> {
    await this.db.query(sql`
      INSERT INTO fw_ai_token_usage (subject, window_start, tokens) VALUES (${subject}, ${windowStart}, ${tokens})
      ON CONFLICT ON CONSTRAINT fw_ai_token_usage_pkey DO UPDATE SET tokens = fw_ai_token_usage.tokens + EXCLUDED.tokens, updated_at = now()`);
  }
}
