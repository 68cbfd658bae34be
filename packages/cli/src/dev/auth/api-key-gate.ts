import { API_KEY_AUTHORIZER_CACHE_TTL_CONTEXT, API_KEY_AUTHORIZER_DEFAULT_CACHE_TTL_SECONDS, apiKeyAuthorizerCacheTtl, apiKeyAuthorizerGateRefusal } from '@framework/core';
import { apiKeyOf } from '@framework/runtime/dev-server';
import { readProjectContext } from '../../cloud/project-context.js';
import type { DevLogger } from '../engines/engine.js';

/**
 * The API-key authorizer's cache TTL this project deploys with: `cdk.json`'s context key, as `fw deploy` reads it, or
 * the default. A `cdk.json` that does not parse is reported and the default used (`fw deploy` refuses it anyway).
 */
export function deployedApiKeyAuthorizerTtl(rootDir: string, log: DevLogger): number {
  try {
    return apiKeyAuthorizerCacheTtl(readProjectContext(rootDir)[API_KEY_AUTHORIZER_CACHE_TTL_CONTEXT]);
  } catch (error) {
    log.warn(`${(error as Error).message}; API-key routes are served as with the default authorizer cache (${API_KEY_AUTHORIZER_DEFAULT_CACHE_TTL_SECONDS} s)`);
    return API_KEY_AUTHORIZER_DEFAULT_CACHE_TTL_SECONDS;
  }
}

/** What the gateway in front of a route that accepts API keys does with a request (headers with lower-case names). */
export type ApiKeyGate = { readonly refused: string } | { readonly refused?: undefined; readonly presentsKey: boolean };

/**
 * The deployed gateway's decision for a route with `auth: [..., 'apiKey']`, from core's rule: cached, a request
 * without `Authorization` is refused before the authorizer (a key in `X-API-Key` alone included), and the authorizer
 * reads a key from `Authorization` only; uncached, it reads `X-API-Key` too. `presentsKey`: the authorizer would
 * check a key (so the local JWT check is skipped and the function's verifier runs).
 */
export function apiKeyGate(cacheTtlSeconds: number, headers: Readonly<Record<string, string | undefined>>): ApiKeyGate {
  const refused = apiKeyAuthorizerGateRefusal(cacheTtlSeconds, headers);
  if (refused !== undefined) return { refused };
  const read = cacheTtlSeconds > 0 ? { authorization: headers['authorization'] } : headers;
  return { presentsKey: apiKeyOf(read) !== undefined };
}
