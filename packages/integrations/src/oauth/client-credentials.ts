import * as oauth from 'oauth4webapi';
import { providerError, resolveAuthorizationServer, type OAuthClientCredentials, type ResolvedAuthorizationServer } from './authorization-server.js';

export interface ClientCredentialsOptions extends OAuthClientCredentials {
  /** The provider's token endpoint. */
  readonly tokenEndpoint: string;
  /** @default - the token endpoint's origin */
  readonly issuer?: string;
  /** @default - none (the provider's default) */
  readonly scopes?: readonly string[];
  /** Further token request parameters (`audience`, `resource`). @default - none */
  readonly parameters?: Readonly<Record<string, string>>;
  /** @default 'client_secret_basic' */
  readonly tokenEndpointAuth?: 'client_secret_basic' | 'client_secret_post';
  /**
   * A token is replaced this long before it expires (calls in flight must not carry a token that dies on the way).
   * @default 60000
   */
  readonly refreshBeforeExpiryMs?: number;
  /**
   * The lifetime assumed when the provider sends no `expires_in`.
   * @default 3600
   */
  readonly defaultExpiresInSeconds?: number;
  /** The clock (epoch ms). @default Date.now */
  readonly now?: () => number;
}

/** A machine token for one client, cached. */
export interface ClientCredentialsTokenSource {
  /** A valid access token: the cached one, or a new one when it is about to expire (concurrent callers share one request). */
  getAccessToken(): Promise<string>;
  /** Drops the cached token (after the upstream refused it with 401). */
  invalidate(): void;
}

interface CacheEntry {
  token?: { readonly value: string; readonly expiresAt: number };
  pending?: Promise<string>;
}

/**
 * Cached per container: every source for the same endpoint, client and scopes shares one entry, so a token outlives
 * the invocation that fetched it (the cache the Powertools RFC asks for) and modules that each create a source do not
 * each fetch one.
 */
const cache = new Map<string, CacheEntry>();

/** Client-credentials tokens (RFC 6749 §4.4) through oauth4webapi, cached until shortly before they expire. */
export function createClientCredentialsTokenSource(options: ClientCredentialsOptions): ClientCredentialsTokenSource {
  const server: ResolvedAuthorizationServer = resolveAuthorizationServer(
    'client_credentials',
    { issuer: options.issuer ?? new URL(options.tokenEndpoint).origin, tokenEndpoint: options.tokenEndpoint, ...(options.tokenEndpointAuth ? { tokenEndpointAuth: options.tokenEndpointAuth } : {}) },
    options,
  );
  const now = options.now ?? Date.now;
  const skew = options.refreshBeforeExpiryMs ?? 60_000;
  const defaultTtl = options.defaultExpiresInSeconds ?? 3600;
  const scopes = [...(options.scopes ?? [])].sort().join(' ');
  const key = JSON.stringify([options.tokenEndpoint, options.clientId, scopes, options.parameters ?? {}]);
  const entry = (): CacheEntry => {
    let found = cache.get(key);
    if (!found) cache.set(key, (found = {}));
    return found;
  };

  const fetchToken = async (): Promise<string> => {
    const parameters = new URLSearchParams(options.parameters);
    if (scopes) parameters.set('scope', scopes);
    let result: oauth.TokenEndpointResponse;
    try {
      const response = await oauth.clientCredentialsGrantRequest(server.as, server.client, server.clientAuth, parameters, server.requestOptions);
      result = await oauth.processClientCredentialsResponse(server.as, server.client, response);
    } catch (error) {
      throw providerError(options.tokenEndpoint, error);
    }
    const lifetime = typeof result.expires_in === 'number' && result.expires_in > 0 ? result.expires_in : defaultTtl;
    entry().token = { value: result.access_token, expiresAt: now() + lifetime * 1000 };
    return result.access_token;
  };

  return {
    getAccessToken() {
      const current = entry();
      if (current.token && current.token.expiresAt - skew > now()) return Promise.resolve(current.token.value);
      current.pending ??= fetchToken().finally(() => {
        current.pending = undefined;
      });
      return current.pending;
    },
    invalidate() {
      entry().token = undefined;
    },
  };
}
