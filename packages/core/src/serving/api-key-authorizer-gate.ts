/**
 * Which requests API Gateway lets through to the API-key Lambda authorizer of routes with `auth: [..., 'apiKey']`.
 * Kept in core because both interpreters must decide the same way: infra configures the HTTP API's authorizer from
 * it, and `fw dev` refuses what that authorizer's gateway would refuse.
 *
 * AWS's rule for HTTP API Lambda authorizers: with caching on, the identity sources are the cache key and must be
 * listed; a request where any of them is missing or empty gets 401 from the gateway without the authorizer running.
 * With caching off, identity sources are optional: the authorizer runs for every request.
 */

/** CDK context key that sets the authorizer's cache TTL (`cdk.json`'s `context`, read by `fw deploy` and `fw dev`). */
export const API_KEY_AUTHORIZER_CACHE_TTL_CONTEXT = '@framework/infra:apiKeyAuthorizerCacheTtl';

/** The default verdict cache: a revoked key keeps passing the gateway for at most this long. */
export const API_KEY_AUTHORIZER_DEFAULT_CACHE_TTL_SECONDS = 300;

/** The one header the cached authorizer is keyed on (lower case, as Node and the authorizer event name it). */
export const API_KEY_AUTHORIZER_IDENTITY_HEADER = 'authorization';

/** The authorizer's cache TTL for a context value (a number or its text), or the default when it is unset. */
export function apiKeyAuthorizerCacheTtl(contextValue: unknown): number {
  return contextValue === undefined || contextValue === null || contextValue === '' ? API_KEY_AUTHORIZER_DEFAULT_CACHE_TTL_SECONDS : Number(contextValue);
}

/**
 * The authorizer's identity sources for a TTL: `Authorization` when it caches (listing `X-API-Key` too would refuse
 * every request that sends only one of the two), none when it does not.
 */
export function apiKeyAuthorizerIdentitySources(cacheTtlSeconds: number): string[] {
  return cacheTtlSeconds > 0 ? ['$request.header.Authorization'] : [];
}

/**
 * Why the gateway refuses a request to a route behind the authorizer before the authorizer runs (401), or undefined
 * when the authorizer gets it. `headers` with lower-case names.
 */
export function apiKeyAuthorizerGateRefusal(cacheTtlSeconds: number, headers: Readonly<Record<string, string | undefined>>): string | undefined {
  if (apiKeyAuthorizerIdentitySources(cacheTtlSeconds).length === 0) return undefined;
  if (headers[API_KEY_AUTHORIZER_IDENTITY_HEADER]) return undefined;
  const keyInOtherHeader = Boolean(headers['x-api-key']);
  return keyInOtherHeader
    ? 'API_KEY_IN_X_API_KEY: this route is behind the API-key authorizer, which caches its verdicts keyed on Authorization, so API Gateway refuses a request without that header before any check. Send the key as Authorization: Bearer sk_... (the generated client\'s token), or turn the cache off (context @framework/infra:apiKeyAuthorizerCacheTtl 0 in cdk.json) to accept X-API-Key'
    : 'AUTHORIZATION_MISSING: this route is behind the API-key authorizer, keyed on the Authorization header: send Authorization: Bearer <API key or access token>';
}
