import { UserExistsError } from '@framework/auth';
import { taskHandler } from '@framework/runtime';

/**
 * What the member routes ask for, in the admin's tenant: `invite` makes the member's account (`POST /members`),
 * `remove` deletes it (`DELETE /members/{email}`).
 */
export type MemberAccountRequest =
  | { readonly op: 'invite'; readonly email: string; readonly role: 'member' | 'admin'; readonly tenant: string }
  | { readonly op: 'remove'; readonly email: string; readonly tenant: string };

/** An invitation's account (made, or found when the address was invited to this tenant before), or why there is none. */
export type InviteResult =
  | { readonly ok: true; readonly account: { readonly roles: readonly string[]; readonly status: string; readonly tenant?: string } }
  | { readonly ok: false; readonly code: 'USER_EXISTS' };

/** Whether an account of the tenant was deleted (none, or another tenant's, is left alone). */
export type RemoveResult = { readonly ok: true; readonly removed: boolean };

/**
 * The members' accounts, with `service.auth` (invited: Cognito emails the temporary password; `fw dev` prints it and
 * puts Cognito's invitation email in the local inbox).
 *
 * A function of its own so that it runs outside the VPC: the member routes use the database, so they sit in an
 * isolated subnet, and Cognito serves no VPC endpoint request for a user pool with a domain (this app's web client
 * gives its pool one). Without a NAT gateway (the free preset) only a function outside the VPC reaches Cognito; the
 * routes invoke this one through Lambda's endpoint. Invoked only by the app's own functions (IAM), so it takes the
 * tenant from the caller, who took it from the admin's token; it never touches an account of another tenant.
 */
export const main = taskHandler(async (request: MemberAccountRequest, _ctx, service): Promise<InviteResult | RemoveResult> => {
  const { email, tenant } = request;
  if (request.op === 'remove') {
    const account = await service.auth.getUser(email);
    if (account?.tenant !== tenant) return { ok: true, removed: false };
    await service.auth.deleteUser(email);
    return { ok: true, removed: true };
  }
  try {
    const created = await service.auth.createUser({ username: email, email, roles: [request.role], tenant, invite: true });
    return { ok: true, account: { roles: created.roles, status: created.status, ...(created.tenant ? { tenant: created.tenant } : {}) } };
  } catch (error) {
    if (!(error instanceof UserExistsError)) throw error;
    // Invited before: the same answer when it is this tenant's; an account belongs to one tenant only.
    const existing = await service.auth.getUser(email);
    if (existing?.tenant !== tenant) return { ok: false, code: 'USER_EXISTS' };
    return { ok: true, account: { roles: existing.roles, status: existing.status, tenant } };
  }
});
