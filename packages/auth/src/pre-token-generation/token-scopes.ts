import type { ScopeRules } from './scope-rules.js';

/**
 * The scopes a user gets through an app client (unprefixed): those of their roles, and those every user gets
 * (`everyUser`), that the client may request.
 */
export function roleScopes(rules: ScopeRules, groups: readonly string[], clientName: string | undefined): string[] {
  const allowed = clientName !== undefined && Object.hasOwn(rules.clients, clientName) ? new Set(rules.clients[clientName]) : new Set<string>();
  const granted = new Set<string>();
  for (const scope of rules.everyUser) if (allowed.has(scope)) granted.add(scope);
  for (const group of groups) {
    if (!Object.hasOwn(rules.roles, group)) continue;
    for (const scope of rules.roles[group]!) if (allowed.has(scope)) granted.add(scope);
  }
  return [...granted].sort();
}

/** Input of `accessTokenScopeChanges`. */
export interface ScopeChangeInput {
  readonly rules: ScopeRules;
  /** The resource server's identifier: custom scopes appear in tokens as `<identifier>/<scope>`. */
  readonly resourceServer: string;
  /** The user's groups (`groupConfiguration.groupsToOverride`). */
  readonly groups: readonly string[];
  /** The scopes Cognito would put into the access token (`request.scopes`). */
  readonly requestedScopes: readonly string[];
  /** The name of the app client signing in; undefined when it is not one of the config's. */
  readonly clientName: string | undefined;
}

/**
 * How the access token's scopes change so that it carries exactly the resource server's scopes of the user's roles
 * (and `everyUser`'s) the client may request: the missing ones are added, the others of this resource server
 * suppressed. A client that asked for some of the resource server's scopes gets no more than those (least privilege:
 * a reporting tool asking for `tasks:read` gets no write scope from its user's admin role); one that asked for none of
 * them (`scope=openid email`) gets every granted one. Cognito passes, when the authorize request names no `scope`,
 * every scope the client may request: then all granted ones too. Scopes of other resource servers and OpenID scopes
 * (`openid`, `email`, `aws.cognito.signin.user.admin`) are left alone.
 */
export function accessTokenScopeChanges(input: ScopeChangeInput): { scopesToAdd: string[]; scopesToSuppress: string[] } {
  const prefix = `${input.resourceServer}/`;
  const asked = input.requestedScopes.filter((scope) => scope.startsWith(prefix));
  const all = roleScopes(input.rules, input.groups, input.clientName).map((scope) => prefix + scope);
  const granted = asked.length ? all.filter((scope) => asked.includes(scope)) : all;
  const requested = new Set(input.requestedScopes);
  const keep = new Set(granted);
  return {
    scopesToAdd: granted.filter((scope) => !requested.has(scope)),
    scopesToSuppress: [...requested].filter((scope) => scope.startsWith(prefix) && !keep.has(scope)).sort(),
  };
}
