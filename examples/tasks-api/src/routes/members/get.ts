import { sql } from '@framework/data';
import { handler } from '@framework/runtime';
import { billing } from '../../lib/billing.js';
import { tenancy } from '../../lib/tenancy.js';

/**
 * GET /members → the tenant's members. A metered API call: each request counts one `api_calls` unit, keyed by its
 * request id (a retried delivery of the same request counts once), in the transaction that reads.
 */
export const main = handler({
  scopes: ['tasks:read'],
  middleware: [tenancy],
  fn: async (_body, ctx, service) =>
    service.db.transaction(async (tx) => {
      await billing.track(tx, { meter: 'api_calls', quantity: 1, idempotencyKey: ctx.requestId });
      const members = await tx.many<{ email: string; invited_by: string }>(sql`SELECT email, invited_by FROM members ORDER BY email`);
      return { members: members.map((m) => ({ email: m.email, invitedBy: m.invited_by })) };
    }),
});
