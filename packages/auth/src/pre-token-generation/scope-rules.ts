import type { SecurityConfig } from '@framework/core';
import { AuthNotConfiguredError } from '../errors.js';

/**
 * What the pre-token-generation trigger needs of the security config: each role's scopes and each app client's
 * (by the client's name, which is its Cognito `ClientName`). Scopes without the resource server prefix.
 */
export interface ScopeRules {
  /** Role (Cognito group) name → the scopes its members get. */
  readonly roles: Readonly<Record<string, readonly string[]>>;
  /** App client name → the scopes it may request. */
  readonly clients: Readonly<Record<string, readonly string[]>>;
  /** Scopes every signed-in user gets on top of their roles' (`security.everyUser`), none included. */
  readonly everyUser: readonly string[];
}

/** The rules of a security config: what infra puts into the trigger's `FW_AUTH_SCOPE_RULES` variable. */
export function scopeRulesOf(security: Pick<SecurityConfig, 'roles' | 'appClients' | 'everyUser'>): ScopeRules {
  return {
    roles: Object.fromEntries(Object.entries(security.roles ?? {}).map(([name, role]) => [name, [...role.scopes]])),
    clients: Object.fromEntries(Object.entries(security.appClients ?? {}).map(([name, client]) => [name, [...client.scopes]])),
    everyUser: [...(security.everyUser?.scopes ?? [])],
  };
}

/**
 * Reads the rules from the variable's JSON. The maps have no prototype: a group named `constructor` or `__proto__`
 * (group names come from user administration, not from the config) finds no role.
 */
export function parseScopeRules(text: string | undefined, variable: string): ScopeRules {
  if (!text) throw new AuthNotConfiguredError(`${variable} is not set on the pre-token-generation trigger`);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new AuthNotConfiguredError(`${variable} is not JSON`);
  }
  const record = (field: 'roles' | 'clients'): Record<string, readonly string[]> => {
    const raw = (value as Record<string, unknown> | null)?.[field];
    if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw new AuthNotConfiguredError(`${variable}.${field} is not an object of scope lists`);
    const out = Object.create(null) as Record<string, readonly string[]>;
    for (const [name, scopes] of Object.entries(raw)) {
      if (!Array.isArray(scopes) || !scopes.every((s) => typeof s === 'string')) throw new AuthNotConfiguredError(`${variable}.${field}.${name} is not a list of scope names`);
      out[name] = scopes;
    }
    return out;
  };
  // Absent: a trigger deployed before `everyUser` existed, whose variable has no such field (no scope for everyone).
  const everyUser = (value as Record<string, unknown>)['everyUser'] ?? [];
  if (!Array.isArray(everyUser) || !everyUser.every((s) => typeof s === 'string')) throw new AuthNotConfiguredError(`${variable}.everyUser is not a list of scope names`);
  return { roles: record('roles'), clients: record('clients'), everyUser };
}
