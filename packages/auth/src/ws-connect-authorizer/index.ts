import { ENV, TOKEN_VERIFIER_ENV, WS_ANONYMOUS_CONNECTION, WS_AUTHORIZER_ENV } from '@framework/core/names';
import { TokenRejectedError } from '../errors.js';
import type { AccessToken } from '../verify/access-token.js';
import { AccessTokenVerifier, verifyAccessToken } from '../verify/access-token-verifier.js';
import { authorizerContextOf, type AuthorizerContext } from './authorizer-context.js';
import { connectTokenOf, type WsConnectAuthorizerEvent } from './connect-event.js';

export * from './authorizer-context.js';
export * from './connect-event.js';

/** The IAM policy a Lambda authorizer returns. */
export interface WsConnectAuthorizerResult {
  readonly principalId: string;
  readonly policyDocument: {
    readonly Version: '2012-10-17';
    readonly Statement: readonly [{ readonly Action: 'execute-api:Invoke'; readonly Effect: 'Allow' | 'Deny'; readonly Resource: string }];
  };
  readonly context?: AuthorizerContext;
}

/** Options of `createWsConnectAuthorizer`. */
export interface WsConnectAuthorizerOptions {
  /** The scopes `$connect` requires, as tokens carry them (`<resource server>/<scope>`): every one must be there. */
  readonly requiredScopes: readonly string[];
  /** @default - `verifyAccessToken` (the app's pool and app clients, from the auth variables) */
  readonly verify?: (token: string) => Promise<AccessToken>;
  /** Where refusals are logged (the client only sees 401 or 403). @default console.warn */
  readonly log?: (message: string) => void;
}

/**
 * The message API Gateway maps to 401: a Lambda authorizer that throws exactly `Unauthorized` refuses the connection
 * with 401; any other error is a 500.
 */
const UNAUTHORIZED = 'Unauthorized';

function policy(effect: 'Allow' | 'Deny', resource: string, principalId: string, context?: AuthorizerContext): WsConnectAuthorizerResult {
  return {
    principalId,
    policyDocument: { Version: '2012-10-17', Statement: [{ Action: 'execute-api:Invoke', Effect: effect, Resource: resource }] },
    ...(context ? { context } : {}),
  };
}

/**
 * The WebSocket API's `$connect` Lambda REQUEST authorizer. The token (the `Authorization` header, else the `token`
 * query parameter) is verified as the HTTP API's JWT authorizer does (the pool's keys and issuer, `token_use: access`,
 * `client_id` among the app clients) and must carry every required scope. A rejected token, or a missing one when
 * scopes are required, throws `Unauthorized` (API Gateway answers 401); a valid token without a scope gets a Deny
 * (403); otherwise an Allow on the route's ARN with the claims as `context`. Without required scopes a connection
 * may send no token: an Allow with the anonymous context (`WS_ANONYMOUS_CONNECTION`), no caller. A JWKS that cannot be fetched is an error (500), never an Allow.
 */
export function createWsConnectAuthorizer(options: WsConnectAuthorizerOptions) {
  const verify = options.verify ?? verifyAccessToken;
  const log = options.log ?? ((message: string) => console.warn(message));
  const required = [...options.requiredScopes];
  return async (event: WsConnectAuthorizerEvent): Promise<WsConnectAuthorizerResult> => {
    const token = connectTokenOf(event);
    // A `$connect` without scopes is public: no token, no caller (the same context fw dev gives).
    if (token === undefined && required.length === 0) {
      const { principalId, ...context } = WS_ANONYMOUS_CONNECTION;
      return policy('Allow', event.methodArn, principalId!, context);
    }
    if (token === undefined) {
      log('$connect refused (401): no token (send the Authorization header or the token query parameter)');
      throw new Error(UNAUTHORIZED);
    }
    let verified: AccessToken;
    try {
      verified = await verify(token);
    } catch (error) {
      if (!(error instanceof TokenRejectedError)) throw error;
      log(`$connect refused (401): ${error.code}: ${error.message}`);
      throw new Error(UNAUTHORIZED);
    }
    const principalId = verified.subject || verified.clientId || 'unknown';
    const missing = required.filter((scope) => !verified.scopes.includes(scope));
    if (missing.length > 0) {
      log(`$connect refused (403): the token of ${principalId} lacks ${missing.join(', ')}`);
      return policy('Deny', event.methodArn, principalId);
    }
    return policy('Allow', event.methodArn, principalId, authorizerContextOf(verified));
  };
}

let fromEnvironment: { readonly key: string; readonly handler: ReturnType<typeof createWsConnectAuthorizer> } | undefined;

/**
 * The deployed authorizer: the required scopes from `FW_WS_CONNECT_SCOPES`, the pool and app clients from the auth
 * variables (`AccessTokenVerifier.fromEnvironment`, the checks of `verifyAccessToken`). One verifier per container,
 * built again only if the variables change, so its JWKS is fetched once.
 */
export async function main(event: WsConnectAuthorizerEvent): Promise<WsConnectAuthorizerResult> {
  const key = WS_CONNECT_AUTHORIZER_VARIABLES.map((name) => process.env[name] ?? '').join('\n');
  if (fromEnvironment?.key !== key) {
    const verifier = AccessTokenVerifier.fromEnvironment(process.env);
    const requiredScopes = (process.env[WS_AUTHORIZER_ENV.connectScopes] ?? '').split(/\s+/).filter(Boolean);
    fromEnvironment = { key, handler: createWsConnectAuthorizer({ requiredScopes, verify: (token) => verifier.verify(token) }) };
  }
  return fromEnvironment.handler(event);
}

/** The variables the deployed authorizer reads (infra sets exactly these). */
export const WS_CONNECT_AUTHORIZER_VARIABLES: readonly string[] = [ENV.devEndpoint, ENV.authUserPoolId, ENV.authAudience, ENV.authIssuer, ENV.authResourceServer, WS_AUTHORIZER_ENV.connectScopes, TOKEN_VERIFIER_ENV.jwks];
