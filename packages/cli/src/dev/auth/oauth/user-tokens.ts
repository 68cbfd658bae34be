import { randomUUID } from 'node:crypto';
import { roleScopes, scopeRulesOf } from '@framework/auth/dev-server';
import type { AppDefinition } from '@framework/core';
import { localClientId, tokenScope } from '../issuer-plugin.js';
import { TENANT_CLAIM, type LocalIssuer } from '../local-issuer.js';
import type { StoredUser } from '../user-store.js';

/** OIDC scopes a user client may always ask for (Cognito's built-in ones); they grant nothing on the API's routes. */
export const OIDC_SCOPES = ['openid', 'email', 'profile'];

/** Seconds an access or ID token lives: Cognito's default. */
export const TOKEN_SECONDS = 3600;

/** What an authorization code or refresh token stands for: a user signed in through a client. */
export interface UserGrant {
  readonly sub: string;
  readonly clientName: string;
  /** The scopes asked for (`scope` of the authorize request), as sent. */
  readonly requestedScopes: readonly string[];
  readonly nonce?: string;
  /** Seconds since the epoch when the user typed the password. */
  readonly authTime: number;
}

/** The token endpoint's answer for a user. */
export interface UserTokens {
  readonly access_token: string;
  readonly id_token: string;
  readonly token_type: 'Bearer';
  readonly expires_in: number;
}

/**
 * The access token's scopes, as deployed Cognito would issue them through the managed login:
 * - with roles (the pre token generation trigger's rule, from @framework/auth): those of the user's roles and
 *   `everyUser`'s that the client may request, narrowed to the app's scopes asked for when the request names any;
 * - without roles (the trigger leaves the scopes alone): Cognito's own rule, the scopes the request names (the client
 *   may request no others: the authorize request refused them), or every scope of the client when it names none
 *   (`scope` left out). A client that asks for `openid email` only gets none of the app's scopes, deployed too.
 * The app's scopes are prefixed as Cognito prefixes them; the OIDC scopes asked for come first.
 */
export function userScopes(app: AppDefinition, user: StoredUser, grant: UserGrant): string[] {
  const security = app.config.security;
  const asked = grant.requestedScopes.filter((s) => !OIDC_SCOPES.includes(s));
  const isAsked = (scope: string) => asked.includes(scope) || asked.includes(tokenScope(app, scope));
  let custom: string[];
  if (Object.keys(security.roles ?? {}).length) {
    const granted = roleScopes(scopeRulesOf(security), user.roles, grant.clientName);
    custom = asked.length ? granted.filter(isAsked) : granted;
  } else {
    const clientScopes = security.appClients?.[grant.clientName]?.scopes ?? [];
    custom = grant.requestedScopes.length ? clientScopes.filter(isAsked) : [...clientScopes];
  }
  const oidc = grant.requestedScopes.length ? OIDC_SCOPES.filter((s) => grant.requestedScopes.includes(s)) : OIDC_SCOPES;
  return [...oidc, ...custom.map((s) => tokenScope(app, s))];
}

/** The access token (Cognito-shaped, see `LocalIssuer.mint`) and the ID token with Cognito's claims. */
export async function mintUserTokens(issuer: LocalIssuer, app: AppDefinition, user: StoredUser, grant: UserGrant): Promise<UserTokens> {
  const clientId = localClientId(app, grant.clientName);
  const { token: accessToken } = await issuer.mint({ sub: user.sub, username: user.username, groups: user.roles, scopes: userScopes(app, user, grant), clientId, expiresIn: TOKEN_SECONDS, ...(user.tenant ? { tenant: user.tenant } : {}) });
  const idToken = await issuer.signIdToken(
    {
      'sub': user.sub,
      ...(user.roles.length ? { 'cognito:groups': [...user.roles] } : {}),
      ...(user.email ? { email: user.email, email_verified: true } : {}),
      ...(user.tenant ? { [TENANT_CLAIM]: user.tenant } : {}),
      'cognito:username': user.username,
      'origin_jti': randomUUID(),
      'aud': clientId,
      'event_id': randomUUID(),
      'token_use': 'id',
      'auth_time': grant.authTime,
      ...(grant.nonce !== undefined ? { nonce: grant.nonce } : {}),
    },
    TOKEN_SECONDS,
  );
  return { access_token: accessToken, id_token: idToken, token_type: 'Bearer', expires_in: TOKEN_SECONDS };
}
