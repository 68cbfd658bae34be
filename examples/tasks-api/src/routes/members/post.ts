import { getDatabase, sql } from '@framework/data';
import { handler } from '@framework/runtime';
import * as z from '../../lib/zod.js';
import { billing } from '../../lib/billing.js';
import { tenancy } from '../../lib/tenancy.js';

/** The seats the tenant would use with one more member (row-level security counts the request's tenant only). */
async function seatsWithOneMore(): Promise<number> {
  const { n } = await getDatabase().one<{ n: number }>(sql`SELECT count(*)::int AS n FROM members`);
  return n + 1;
}

/**
 * POST /members `{ email }` → the invitation. Each member takes a seat: past the plan's `seats` the answer is 402
 * `FEATURE_LIMIT_EXCEEDED` naming the plan to upgrade to (answered from the tenant's snapshot, no provider call).
 */
export const main = handler({
  scopes: ['tasks:admin'],
  middleware: [tenancy, billing.requireFeature('seats', seatsWithOneMore)],
  body: z.object({ email: z.email() }),
  fn: async (body, ctx, service) => {
    await service.db.query(sql`INSERT INTO members (email, invited_by) VALUES (${body.email}, ${ctx.auth.subject}) ON CONFLICT (tenant_id, email) DO NOTHING`);
    return { email: body.email, invitedBy: ctx.auth.subject };
  },
});
