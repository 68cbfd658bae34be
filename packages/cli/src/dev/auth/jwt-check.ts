import { DEV_PATHS, type AppDefinition } from '@framework/core';
import type { JwtAuthorizerContext } from '../server/gateway-event.js';
import { tokenScope } from './issuer-plugin.js';
import { TokenRejected, type LocalIssuer } from './local-issuer.js';

/** The JWT authorizer's verdict: the claims for the event, or the gateway's refusal with its reason and headers. */
export type JwtCheck =
  | { readonly ok: true; readonly authorizer: JwtAuthorizerContext }
  | { readonly ok: false; readonly statusCode: 401 | 403; readonly reason: string; readonly headers: Record<string, string> };

/**
 * The HTTP API's JWT authorizer for a route that requires `scopes`, with the local issuer's keys: the token from the
 * `Authorization` header, verified, holding any one of the route's scopes.
 */
export async function checkJwt(issuer: LocalIssuer, app: AppDefinition, routeKey: string, scopes: readonly string[], authorization: string | undefined): Promise<JwtCheck> {
  // As the HTTP API's identity source: the token alone, or prefixed with `Bearer `.
  const bearer = /^(?:Bearer\s+)?(\S+)\s*$/i.exec(authorization ?? '');
  if (!bearer) return { ok: false, statusCode: 401, reason: `${routeKey} needs a bearer token (Authorization: Bearer <token>; mint one with POST ${DEV_PATHS.token})`, headers: { 'www-authenticate': 'Bearer' } };
  let authorizer: JwtAuthorizerContext;
  try {
    authorizer = await issuer.verify(bearer[1]!);
  } catch (error) {
    if (!(error instanceof TokenRejected)) throw error;
    return { ok: false, statusCode: 401, reason: `the bearer token was rejected: ${error.message}`, headers: { 'www-authenticate': `Bearer error="invalid_token", error_description="${error.message.replace(/"/g, "'")}"` } };
  }
  // The HTTP API's JWT authorizer admits a token holding any one of the route's scopes, as deployed: prefixed with
  // the resource server's identifier (`tasks-api/tasks:read`).
  const tokenScopes = scopes.map((s) => tokenScope(app, s));
  if (!tokenScopes.some((s) => authorizer.scopes.includes(s))) {
    return {
      ok: false,
      statusCode: 403,
      reason: `${routeKey} requires the scope ${tokenScopes.join(' or ')}; the token has ${authorizer.scopes.join(', ') || 'none'}`,
      headers: { 'www-authenticate': `Bearer error="insufficient_scope", scope="${tokenScopes.join(' ')}"` },
    };
  }
  return { ok: true, authorizer };
}
