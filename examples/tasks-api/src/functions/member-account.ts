import { UserExistsError } from '@framework/auth';
import { taskHandler } from '@framework/runtime';

/** What `POST /members` asks for: the member's account, in the inviting admin's tenant. */
export interface MemberAccountRequest {
  readonly email: string;
  readonly role: 'member' | 'admin';
  readonly tenant: string;
}

/** The account made (or found, when the address was invited to this tenant before), or why there is none. */
export type MemberAccountResult =
  | { readonly ok: true; readonly account: { readonly roles: readonly string[]; readonly status: string; readonly tenant?: string } }
  | { readonly ok: false; readonly code: 'USER_EXISTS' };

/**
 * Creates a member's account with `service.auth` (invited: Cognito emails the temporary password; `fw dev` prints it
 * and puts Cognito's invitation email in the local inbox).
 * A function of its own so that it runs outside the VPC: `POST /members` uses the database, so it sits in an isolated
 * subnet, and Cognito serves no VPC endpoint request for a user pool with a domain (this app's web client gives its
 * pool one). Without a NAT gateway (the free preset) only a function outside the VPC reaches Cognito; the route
 * invokes this one through Lambda's endpoint. Invoked only by the app's own functions (IAM), so it takes the tenant
 * from the caller, who took it from the admin's token.
 */
export const main = taskHandler(async (request: MemberAccountRequest, _ctx, service): Promise<MemberAccountResult> => {
  const { email, role, tenant } = request;
  try {
    const created = await service.auth.createUser({ username: email, email, roles: [role], tenant, invite: true });
    return { ok: true, account: { roles: created.roles, status: created.status, ...(created.tenant ? { tenant: created.tenant } : {}) } };
  } catch (error) {
    if (!(error instanceof UserExistsError)) throw error;
    // Invited before: the same answer when it is this tenant's; an account belongs to one tenant only.
    const existing = await service.auth.getUser(email);
    if (existing?.tenant !== tenant) return { ok: false, code: 'USER_EXISTS' };
    return { ok: true, account: { roles: existing.roles, status: existing.status, tenant } };
  }
});
