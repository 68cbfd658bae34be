import type { JWTPayload } from 'jose';
import { accessTokenOf } from '@framework/auth';
import { authorizerContextOf } from '@framework/auth/ws-connect-authorizer';

/**
 * What the `$connect` authorizer gives the connection under `fw dev`: the context the deployed authorizer
 * (`@framework/auth/ws-connect-authorizer`) returns, flat as API Gateway requires (`cognito:groups` space-separated),
 * plus the `principalId` API Gateway adds, so `ctx.auth` reads the same in both places.
 */
export function devConnectAuthorizerContext(claims: JWTPayload): Record<string, string | number | boolean> {
  const token = accessTokenOf(claims);
  return { ...authorizerContextOf(token), principalId: token.subject || token.clientId || '' };
}
