import { getDatabase, sql } from '@framework/data';
import { Conflict, handler, invoke } from '@framework/runtime';
import type { InviteResult, MemberAccountRequest } from '../../functions/member-account.js';
import * as z from '../../lib/zod.js';
import { billing } from '../../lib/billing.js';
import { tenancy } from '../../lib/tenancy.js';

/** The seats the tenant would use with one more member (row-level security counts the request's tenant only). */
async function seatsWithOneMore(): Promise<number> {
  const { n } = await getDatabase().one<{ n: number }>(sql`SELECT count(*)::int AS n FROM members`);
  return n + 1;
}

/**
 * POST /members `{ email, role? }` → the invitation: a `members` row, and the member's account in the inviting
 * admin's tenant, made by the `member-account` function with `service.auth.createUser({ tenant, invite: true })`
 * (see it for why it is a function of its own). The member's tokens carry the tenant, so they see this tenant's tasks
 * only. Inviting the same address again answers the same invitation. An address that has an account in another
 * tenant is 409 `USER_EXISTS`: an account belongs to one tenant.
 *
 * Each member takes a seat: past the plan's `seats` the answer is 402 `FEATURE_LIMIT_EXCEEDED` naming the plan to
 * upgrade to (answered from the tenant's snapshot, no provider call).
 */
export const main = handler({
  scopes: ['tasks:admin'],
  middleware: [tenancy, billing.requireFeature('seats', seatsWithOneMore)],
  body: z.object({ email: z.email(), role: z.optional(z.enum(['member', 'admin'])) }),
  fn: async (body, ctx, service) => {
    const request: MemberAccountRequest = { op: 'invite', email: body.email, role: body.role ?? 'member', tenant: ctx.tenant!.id };
    // The row and the account together: when the account cannot be made, the row rolls back. A retry after a failed
    // commit finds the account made (same tenant) and goes on.
    const account = await service.db.transaction(async (tx) => {
      await tx.query(sql`INSERT INTO members (email, invited_by) VALUES (${body.email}, ${ctx.auth.subject}) ON CONFLICT (tenant_id, email) DO NOTHING`);
      const made = await invoke<InviteResult>({ function: 'member-account' }, { payload: request });
      if (!made.ok) throw new Conflict('An account with this email address belongs to another organization; ask them to use another address', { code: made.code });
      return made.account;
    });
    return { email: body.email, invitedBy: ctx.auth.subject, account };
  },
});
