import * as oauth from 'oauth4webapi';
import { OAuthConfigError, OAuthProviderError } from '../errors.js';
import type { OAuthProviderPreset } from './provider-presets.js';

/** An OAuth2 client registered with a provider. */
export interface OAuthClientCredentials {
  readonly clientId: string;
  readonly clientSecret: string;
}

/** oauth4webapi's view of a provider and client, plus the request options every call shares. */
export interface ResolvedAuthorizationServer {
  readonly name: string;
  readonly as: oauth.AuthorizationServer;
  readonly client: oauth.Client;
  readonly clientAuth: oauth.ClientAuth;
  readonly requestOptions: { readonly [oauth.allowInsecureRequests]?: boolean };
}

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

/** Checks the endpoints (https, or http on loopback for local stand-ins) and builds oauth4webapi's objects. */
export function resolveAuthorizationServer(name: string, preset: Pick<OAuthProviderPreset, 'issuer' | 'tokenEndpoint' | 'tokenEndpointAuth'> & Partial<OAuthProviderPreset>, credentials: OAuthClientCredentials): ResolvedAuthorizationServer {
  if (!credentials.clientId) throw new OAuthConfigError(`provider "${name}" has no clientId`);
  if (!credentials.clientSecret) throw new OAuthConfigError(`provider "${name}" has no clientSecret (read it from a secret, never from code)`);
  let insecure = false;
  for (const endpoint of [preset.tokenEndpoint, preset.authorizationEndpoint, preset.revocationEndpoint]) {
    if (endpoint === undefined) continue;
    let url: URL;
    try {
      url = new URL(endpoint);
    } catch {
      throw new OAuthConfigError(`provider "${name}" has an endpoint that is not a URL: "${endpoint}"`);
    }
    if (url.protocol === 'http:' && LOOPBACK.has(url.hostname)) insecure = true;
    else if (url.protocol !== 'https:') throw new OAuthConfigError(`provider "${name}" endpoint ${endpoint} is not https (http is accepted on loopback only, for local stand-ins)`);
  }
  const as: oauth.AuthorizationServer = {
    issuer: preset.issuer,
    token_endpoint: preset.tokenEndpoint,
    ...(preset.authorizationEndpoint ? { authorization_endpoint: preset.authorizationEndpoint } : {}),
    ...(preset.revocationEndpoint ? { revocation_endpoint: preset.revocationEndpoint } : {}),
  };
  const clientAuth = preset.tokenEndpointAuth === 'client_secret_post' ? oauth.ClientSecretPost(credentials.clientSecret) : oauth.ClientSecretBasic(credentials.clientSecret);
  return { name, as, client: { client_id: credentials.clientId }, clientAuth, requestOptions: insecure ? { [oauth.allowInsecureRequests]: true } : {} };
}

/** oauth4webapi's errors as ours: the provider's OAuth2 `error` code kept (`invalid_grant` breaks a connection). */
export function providerError(provider: string, error: unknown): OAuthProviderError {
  if (error instanceof oauth.ResponseBodyError) return new OAuthProviderError(provider, error.error, error.error_description ?? `status ${error.status}`, { cause: error });
  if (error instanceof oauth.AuthorizationResponseError) return new OAuthProviderError(provider, error.error, error.error_description ?? 'the authorization was not granted', { cause: error });
  return new OAuthProviderError(provider, undefined, (error as Error).message ?? String(error), { cause: error });
}
