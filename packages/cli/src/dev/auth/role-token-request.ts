import { roleScopes, scopeRulesOf } from '@framework/auth/dev-server';
import type { AppDefinition } from '@framework/core';
import { isMachineClient } from './machine-client.js';

/** What a `/_dev/token` request naming `roles` becomes: the token deployed Cognito would issue to such a user. */
export type RoleTokenRequest =
  | { readonly ok: true; readonly scopes: string[]; readonly client: string; readonly groups: string[] }
  | { readonly ok: false; readonly code: 'UNKNOWN_ROLE' | 'UNKNOWN_CLIENT' | 'SCOPE_NOT_ALLOWED' | 'INVALID_TOKEN_REQUEST'; readonly message: string };

/**
 * A token request for a user holding `roles`: as the pre token generation trigger does deployed, the scopes are
 * those of the roles that the app client may request, and the roles are the user's `cognito:groups`. Without a
 * client: the first user client (not client-credentials only) that may request every scope of the roles, else the
 * first user client.
 */
export function roleTokenRequest(app: AppDefinition, input: { roles: unknown; client?: unknown; scopes?: unknown; groups?: unknown }): RoleTokenRequest {
  const security = app.config.security;
  const declaredRoles = security.roles ?? {};
  const clients = security.appClients ?? {};
  if (!Array.isArray(input.roles) || !input.roles.every((r): r is string => typeof r === 'string' && r !== '')) {
    return { ok: false, code: 'INVALID_TOKEN_REQUEST', message: 'expected "roles" to be an array of role names from config/security.ts' };
  }
  if (input.scopes !== undefined || input.groups !== undefined) {
    return { ok: false, code: 'INVALID_TOKEN_REQUEST', message: 'give "roles", or "scopes" and "groups", not both: with roles the token gets the scopes of those roles that the client may request, as deployed' };
  }
  const roles = input.roles;
  // Own names only: a role named `constructor` or `__proto__` is not declared.
  const unknown = roles.filter((r) => !Object.hasOwn(declaredRoles, r));
  if (unknown.length) {
    return { ok: false, code: 'UNKNOWN_ROLE', message: `role${unknown.length > 1 ? 's' : ''} ${unknown.map((r) => JSON.stringify(r)).join(', ')} not declared in config/security.ts; roles: ${Object.keys(declaredRoles).join(', ') || '(none)'}` };
  }
  let client: string;
  if (input.client !== undefined) {
    if (typeof input.client !== 'string' || !Object.hasOwn(clients, input.client)) {
      return { ok: false, code: 'UNKNOWN_CLIENT', message: `app client ${JSON.stringify(input.client)} is not declared in config/security.ts; clients: ${Object.keys(clients).join(', ') || '(none)'}` };
    }
    if (isMachineClient(clients[input.client]!)) {
      return { ok: false, code: 'INVALID_TOKEN_REQUEST', message: `app client "${input.client}" uses only client_credentials: its tokens belong to the client, with no user and so no roles; name a client with a user flow` };
    }
    client = input.client;
  } else {
    const wanted = new Set(roles.flatMap((r) => declaredRoles[r]!.scopes));
    const userClients = Object.entries(clients).filter(([, c]) => !isMachineClient(c));
    const picked = userClients.find(([, c]) => [...wanted].every((s) => c.scopes.includes(s))) ?? userClients[0];
    if (!picked) return { ok: false, code: 'SCOPE_NOT_ALLOWED', message: 'no app client in config/security.ts signs users in (every client uses only client_credentials); give one a user flow such as "authorization_code" or "user_srp"' };
    client = picked[0];
  }
  return { ok: true, scopes: roleScopes(scopeRulesOf(security), roles, client), client, groups: [...roles] };
}
