import type { JWTPayload } from 'jose';

/** What a verified access token says, in the terms a handler uses. */
export interface AccessToken {
  /** `sub`: the user id, or the client id for a machine (client-credentials) token. */
  readonly subject: string;
  /** `client_id` (Cognito access tokens) or else `aud` when it is one string. */
  readonly clientId?: string;
  /** `scope` split on spaces (or `scp`), as the token carries them: custom scopes keep the resource server prefix. */
  readonly scopes: readonly string[];
  /** `cognito:groups`: the user's roles. Empty for machine tokens. */
  readonly groups: readonly string[];
  /** True for a client-credentials token: `sub` is the client id and no user signed in. */
  readonly isMachine: boolean;
  /** `iss`. */
  readonly issuer: string;
  /** Every claim, as verified. */
  readonly claims: Readonly<JWTPayload>;
}

/** The verified payload in the shape of `AccessToken`. */
export function accessTokenOf(payload: JWTPayload): AccessToken {
  const clientId = typeof payload.client_id === 'string' ? payload.client_id : typeof payload.aud === 'string' ? payload.aud : undefined;
  const scopes = typeof payload.scope === 'string'
    ? payload.scope.split(' ').filter(Boolean)
    : Array.isArray(payload.scp) ? payload.scp.filter((s): s is string => typeof s === 'string') : [];
  const groupsClaim = payload['cognito:groups'];
  const groups = Array.isArray(groupsClaim) ? groupsClaim.filter((g): g is string => typeof g === 'string') : [];
  const subject = typeof payload.sub === 'string' ? payload.sub : '';
  return {
    subject,
    clientId,
    scopes,
    groups,
    // Cognito's client-credentials tokens have the client id as `sub` and no `username`.
    isMachine: clientId !== undefined && subject === clientId && payload.username === undefined,
    issuer: typeof payload.iss === 'string' ? payload.iss : '',
    claims: payload,
  };
}
