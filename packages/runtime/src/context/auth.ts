import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { ENV, type AuthMethod } from '@framework/core/names';
import { InsufficientScope, Unauthorized } from '../errors.js';
import type { AppScope } from '../register/register.js';

/** Who called, from the verified token claims. */
export interface AuthInfo {
  /** The `sub` claim (user id, or app client id for client-credentials tokens). */
  readonly subject: string;
  /**
   * Granted scopes as the token carries them (Cognito prefixes custom scopes: `tasks-api/tasks:read`): the `scope`
   * claim split on spaces, or the `scp` array, plus the gateway's own `scopes` list.
   */
  readonly scopes: readonly string[];
  /**
   * The app's own scopes without their prefix (`tasks:read`): scopes of the app's resource server
   * (`FW_AUTH_RESOURCE_SERVER`) and bare ones. Scopes of any other resource server are left out: they grant nothing here.
   */
  readonly appScopes: readonly string[];
  /** The user's groups (`cognito:groups`; the gateway passes the array as `[a b]`); empty for a machine token. */
  readonly groups: readonly string[];
  /**
   * The user's roles (`roles` of `config/security.ts`): deployed each role is a Cognito group, so these are the
   * groups; empty for a machine token.
   */
  readonly roles: readonly string[];
  /** The app client the token was issued to (`client_id`). */
  readonly clientId?: string;
  /**
   * A machine token (client credentials): issued to an app client, not a user. Cognito gives such a token no
   * `username` and makes its `sub` the client id; fw dev's tokens are shaped the same.
   */
  readonly isMachine: boolean;
  /**
   * Whether the token grants `scope` (the bare name a route declares, `tasks:write`): the same rule as the routes'
   * check (the app's own resource-server prefix, or the bare name). With the generated `.fw/types` only the scopes
   * declared in `config/security.ts` compile.
   */
  can(scope: AppScope): boolean;
  /** Every claim, as the gateway's JWT authorizer passes them (values are strings there). */
  readonly claims: Readonly<Record<string, unknown>>;
  /** How the caller authenticated: `jwt` (an access token) or `apiKey` (one of the app's API keys). */
  readonly method: AuthMethod;
  /** The API key's id when `method` is `apiKey` (the key itself is never kept). */
  readonly keyId?: string;
}

/** How a caller authenticated, when it was not with a token. */
export interface AuthMethodInfo {
  readonly method: AuthMethod;
  readonly keyId?: string;
}

/**
 * The caller from a token's claims and granted scopes: the one builder of `ctx.auth` for HTTP routes and WebSocket
 * routes, so both read the same fields the same way.
 */
export function authInfoOf(
  subject: string,
  scopes: readonly string[],
  groups: readonly string[],
  claims: Readonly<Record<string, unknown>>,
  how: AuthMethodInfo = { method: 'jwt' },
): AuthInfo {
  const resourceServer = process.env[ENV.authResourceServer];
  const clientId = typeof claims['client_id'] === 'string' ? claims['client_id'] : undefined;
  const isMachine = clientId !== undefined && subject === clientId && claims['username'] === undefined;
  const info = {
    subject,
    scopes,
    appScopes: appScopesOf(scopes, resourceServer),
    groups,
    roles: isMachine ? [] : groups,
    ...(clientId !== undefined ? { clientId } : {}),
    isMachine,
    claims,
    ...how,
  };
  // A method, not data: kept out of enumeration so `ctx.auth` logs, serializes and compares as its claims do.
  return Object.defineProperty(info, 'can', { value: (scope: string) => scopes.some((granted) => grants(granted, scope, resourceServer)) }) as unknown as AuthInfo;
}

interface JwtAuthorizer {
  claims?: Record<string, unknown>;
  scopes?: readonly string[] | null;
}

function jwtOf(event: APIGatewayProxyEventV2): JwtAuthorizer | undefined {
  const authorizer = (event.requestContext as { authorizer?: { jwt?: JwtAuthorizer } }).authorizer;
  return authorizer?.jwt;
}

/**
 * `scp` arrives as an array from the dev server but the HTTP API JWT authorizer stringifies array claims as
 * `[a b c]`; both forms are read.
 */
function scopesFromClaim(value: unknown): string[] {
  if (Array.isArray(value)) return value.filter((s): s is string => typeof s === 'string');
  if (typeof value !== 'string') return [];
  const trimmed = value.trim();
  const inner = trimmed.startsWith('[') && trimmed.endsWith(']') ? trimmed.slice(1, -1).replace(/,/g, ' ') : trimmed;
  return inner.split(/\s+/).filter(Boolean);
}

/** The caller of a request, or `undefined` when the event carries no claims. */
export function authFromEvent(event: APIGatewayProxyEventV2): AuthInfo | undefined {
  const jwt = jwtOf(event);
  const claims = jwt?.claims;
  if (!claims || Object.keys(claims).length === 0) return undefined;
  const scopes = new Set<string>([
    ...scopesFromClaim(claims['scope']),
    ...scopesFromClaim(claims['scp']),
    ...(Array.isArray(jwt?.scopes) ? jwt.scopes : []),
  ]);
  const sub = claims['sub'] ?? claims['client_id'];
  return authInfoOf(typeof sub === 'string' ? sub : '', [...scopes], scopesFromClaim(claims['cognito:groups']), claims);
}

/** The scopes of the app's own resource server without the prefix, plus bare scopes (each once). */
export function appScopesOf(scopes: readonly string[], resourceServer?: string): string[] {
  const own = resourceServer ? `${resourceServer}/` : undefined;
  const out = new Set<string>();
  for (const scope of scopes) {
    if (own && scope.startsWith(own)) out.add(scope.slice(own.length));
    else if (!scope.includes('/')) out.add(scope);
  }
  return [...out];
}

/**
 * Whether a granted scope satisfies a required one. Cognito issues custom scopes as `<resource server>/<scope>`
 * (`tasks-api/tasks:read`) while routes declare the bare name. Only the app's own resource server may prefix a scope
 * (`resourceServer`, from `FW_AUTH_RESOURCE_SERVER`): any other pool or resource server can issue `evil/tasks:write`,
 * and it must grant nothing here. Without an identifier, only bare names match.
 */
export function grants(granted: string, required: string, resourceServer?: string): boolean {
  if (granted === required) return true;
  return resourceServer !== undefined && resourceServer !== '' && !required.includes('/') && granted === `${resourceServer}/${required}`;
}

/**
 * The handler's check (the gateway checked already when deployed: defense in depth). Every listed scope is
 * required. Throws `Unauthorized` without claims and `InsufficientScope` when a scope is missing.
 */
export function authorize(event: APIGatewayProxyEventV2, requiredScopes: readonly string[]): AuthInfo | undefined {
  const auth = authFromEvent(event);
  if (requiredScopes.length === 0) return auth;
  if (!auth) throw new Unauthorized('This route requires a bearer token (Authorization: Bearer <access token>)');
  const resourceServer = process.env[ENV.authResourceServer];
  const missing = requiredScopes.filter((s) => !auth.scopes.some((granted) => grants(granted, s, resourceServer)));
  if (missing.length > 0) throw new InsufficientScope(requiredScopes, missing);
  return auth;
}
