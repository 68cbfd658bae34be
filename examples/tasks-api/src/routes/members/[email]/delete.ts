import { sql } from '@framework/data';
import { NotFound, handler, invoke } from '@framework/runtime';
import type { MemberAccountRequest, RemoveResult } from '../../../functions/member-account.js';
import { tenancy } from '../../../lib/tenancy.js';

/**
 * DELETE /members/{email} → `{ email, accountRemoved }`: the member leaves the admin's tenant. Their row goes (the
 * seat is free again) and their account is deleted by the `member-account` function, so they can no longer sign in.
 * Another tenant's member is 404 (row-level security: this tenant has no such row), and an account of another tenant
 * is never touched.
 */
export const main = handler({
  scopes: ['tasks:admin'],
  middleware: [tenancy],
  fn: async (_body, ctx, service) => {
    const email = ctx.pathParams.email!;
    return service.db.transaction(async (tx) => {
      const gone = await tx.maybeOne<{ email: string }>(sql`DELETE FROM members WHERE email = ${email} RETURNING email`);
      if (!gone) throw new NotFound(`${email} is no member of this organization`);
      const request: MemberAccountRequest = { op: 'remove', email, tenant: ctx.tenant!.id };
      const { removed } = await invoke<RemoveResult>({ function: 'member-account' }, { payload: request });
      return { email, accountRemoved: removed };
    });
  },
});
