import type { APIGatewayRequestAuthorizerEventV2 } from 'aws-lambda';
import { TokenRejectedError } from '@framework/auth';
import { accessTokenAuthorizerContext, apiKeyAuthorizerContext, apiKeyOf, type LambdaAuthorizerContext, type VerifiedAccessToken } from '@framework/runtime';
import type { ApiKeys } from '../api-keys/api-keys.js';
import { InvalidApiKey } from '../errors.js';

/** What an HTTP API Lambda authorizer with simple responses answers (payload format 2.0). */
export interface ApiKeyAuthorizerResult {
  readonly isAuthorized: boolean;
  readonly context?: LambdaAuthorizerContext;
}

/** Options of `createApiKeyAuthorizer`. */
export interface ApiKeyAuthorizerOptions {
  /** Verifies keys: `createApiKeyVerifier()` (the app's `fw_api_keys`, its pepper, the stage's key kind). */
  readonly apiKeys: Pick<ApiKeys, 'authenticate'>;
  /**
   * Verifies a bearer token that is not a key (routes with `auth: ['jwt', 'apiKey']`): `@framework/auth`'s
   * `verifyAccessToken` deployed (the pool's keys, issuer, `token_use: access`, the app clients).
   * @default - tokens are refused (an app without the auth intent)
   */
  readonly verifyToken?: (token: string) => Promise<VerifiedAccessToken>;
  /** Where refusals are logged (the client only sees 401). @default console.warn */
  readonly log?: (message: string) => void;
}

/**
 * The message API Gateway maps to 401 `{"message":"Unauthorized"}`: a Lambda authorizer that throws exactly
 * `Unauthorized` refuses the request with 401 (any other error is a 500), as `fw dev` answers a bad key or token.
 */
const UNAUTHORIZED = 'Unauthorized';

const lowercased = (headers: Readonly<Record<string, string | undefined>>): Record<string, string | undefined> => {
  const out: Record<string, string | undefined> = Object.create(null) as Record<string, string | undefined>;
  for (const [name, value] of Object.entries(headers)) out[name.toLowerCase()] = value;
  return out;
};

/**
 * The HTTP API's Lambda REQUEST authorizer of the routes that accept API keys. A key (`Authorization: Bearer sk_…`,
 * or `X-API-Key` only when the authorizer runs uncached: no identity source in the event) is checked as
 * `createApiKeys`' verifier checks it, without counting its rate limit: API Gateway caches this verdict, so the route
 * function counts each request instead. A bearer token that is not a key is verified as the JWT authorizer verifies
 * it. The caller goes to the function as `requestContext.authorizer.lambda` (`LambdaAuthorizerContext`), from which
 * `@framework/runtime` fills `ctx.auth` exactly as `fw dev` does; the route's scopes are checked there (403
 * `INSUFFICIENT_SCOPE`). Anything else throws `Unauthorized` (401); a database or JWKS failure is an error (500),
 * never an Allow.
 */
export function createApiKeyAuthorizer(options: ApiKeyAuthorizerOptions) {
  const log = options.log ?? ((message: string) => console.warn(message));
  return async (event: APIGatewayRequestAuthorizerEventV2): Promise<ApiKeyAuthorizerResult> => {
    const headers = lowercased(event.headers ?? {});
    // Cached (identity sources listed), the verdict is kept per `Authorization` value: a key read from `X-API-Key`
    // would be cached under whatever `Authorization` carried, so then only `Authorization` counts.
    const cached = (event.identitySource ?? []).length > 0;
    const key = apiKeyOf(cached ? { authorization: headers['authorization'] } : headers);
    if (key !== undefined) {
      try {
        const { identity, rateLimit } = await options.apiKeys.authenticate(key);
        return { isAuthorized: true, context: apiKeyAuthorizerContext(identity, rateLimit) };
      } catch (error) {
        if (!(error instanceof InvalidApiKey)) throw error;
        log(`${event.routeKey} refused (401): the API key is unknown, revoked, expired or malformed`);
        throw new Error(UNAUTHORIZED);
      }
    }
    const bearer = /^Bearer\s+(\S+)\s*$/i.exec(headers['authorization'] ?? '');
    if (bearer && options.verifyToken) {
      try {
        return { isAuthorized: true, context: accessTokenAuthorizerContext(await options.verifyToken(bearer[1]!)) };
      } catch (error) {
        if (!(error instanceof TokenRejectedError)) throw error;
        log(`${event.routeKey} refused (401): ${error.code}: ${error.message}`);
        throw new Error(UNAUTHORIZED);
      }
    }
    log(`${event.routeKey} refused (401): no API key${options.verifyToken ? ' and no bearer token' : ''}`);
    throw new Error(UNAUTHORIZED);
  };
}
