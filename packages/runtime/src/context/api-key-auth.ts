import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import type { AuthMethod } from '@framework/core/names';
import { InsufficientScope, RuntimeError, Unauthorized } from '../errors.js';
import { installAuthMethods } from './auth-methods-hook.js';
import { authFromEvent, authInfoOf, grants, type AuthInfo } from './auth.js';
import { ENV } from '@framework/core/names';

export type { AuthMethod } from '@framework/core/names';

/**
 * The claim a key's tenant arrives in (`ctx.auth.claims`): the one `@framework-pro/tenancy` reads by default, so a
 * key is bound to the tenant it was issued for.
 */
export const API_KEY_TENANT_CLAIM = 'custom:tenant_id';

/** Who an API key belongs to, as its verifier found it. */
export interface ApiKeyIdentity {
  /** The key's id (never the key itself). */
  readonly keyId: string;
  /** The key's owner (a user, an organization): `ctx.auth.subject`. */
  readonly owner: string;
  /** The scopes the key was issued with (bare names: `tasks:read`). */
  readonly scopes: readonly string[];
  /** The tenant the key was issued for: its requests carry it as the `custom:tenant_id` claim (`API_KEY_TENANT_CLAIM`). */
  readonly tenant?: string;
}

/**
 * Checks a presented API key: resolves its identity, or throws an `HttpError` (401 for an unknown, revoked or expired
 * key, 429 when the key is over its rate limit). `@framework/integrations` registers one (`createApiKeys(...)`).
 */
export type ApiKeyVerifier = (key: string) => Promise<ApiKeyIdentity>;

let registeredVerifier: ApiKeyVerifier | undefined;

/** A verified access token, as a route that authenticates callers itself needs it. */
export interface VerifiedAccessToken {
  readonly subject: string;
  /** As the token carries them (custom scopes keep their resource-server prefix). */
  readonly scopes: readonly string[];
  readonly groups: readonly string[];
  readonly claims: Readonly<Record<string, unknown>>;
}

/** Verifies a bearer token (signature, issuer, audience, expiry); rejects when it is not valid. */
export type AccessTokenVerifier = (token: string) => Promise<VerifiedAccessToken>;

let registeredTokenVerifier: AccessTokenVerifier | undefined;

/**
 * Sets the verifier of bearer tokens for routes that accept API keys. Deployed, such routes are not behind the HTTP
 * API's JWT authorizer (it would refuse every key), so the function verifies a token itself. Under `fw dev` the
 * gateway has verified it already. `createApiKeys(...)` registers `@framework/auth`'s verifier.
 */
export function registerAccessTokenVerifier(verifier: AccessTokenVerifier | undefined): void {
  registeredTokenVerifier = verifier;
}

/**
 * Sets the verifier routes with `auth: [..., 'apiKey']` call; one per container (the last registration wins, so a
 * module evaluated twice or a test's own verifier replaces the previous one). `undefined` removes it.
 */
export function registerApiKeyVerifier(verifier: ApiKeyVerifier | undefined): void {
  registeredVerifier = verifier;
}

/** The key a request presents: `X-API-Key: <key>`, or `Authorization: Bearer <key>` when it has the key's `sk_` form. */
export function apiKeyOf(headers: Readonly<Record<string, string | undefined>>): string | undefined {
  const header = headers['x-api-key']?.trim();
  if (header) return header;
  const bearer = /^Bearer\s+(sk_\S+)\s*$/i.exec(headers['authorization'] ?? '');
  return bearer?.[1];
}

/** The Lambda authorizer's context (`requestContext.authorizer.lambda`) when it verified an API key. */
interface ApiKeyAuthorizerContext {
  readonly authMethod?: unknown;
  readonly keyId?: unknown;
  readonly owner?: unknown;
  readonly scopes?: unknown;
  readonly tenant?: unknown;
}

function lambdaAuthorizerOf(event: APIGatewayProxyEventV2): ApiKeyAuthorizerContext | undefined {
  const authorizer = (event.requestContext as { authorizer?: { lambda?: ApiKeyAuthorizerContext } }).authorizer;
  return authorizer?.lambda;
}

/** The caller of a bearer token no gateway verified (a route that accepts keys, deployed), or undefined without one. */
async function verifiedBearer(headers: Readonly<Record<string, string | undefined>>): Promise<AuthInfo | undefined> {
  const bearer = /^Bearer\s+(\S+)\s*$/i.exec(headers['authorization'] ?? '');
  if (!bearer || !registeredTokenVerifier) return undefined;
  let token: VerifiedAccessToken;
  try {
    token = await registeredTokenVerifier(bearer[1]!);
  } catch {
    throw new Unauthorized('The bearer token was rejected (expired, or not issued for this app)');
  }
  return authInfoOf(token.subject, token.scopes, token.groups, token.claims);
}

/** `ctx.auth` for a caller that presented an API key: the owner as subject, the key's scopes, `method: 'apiKey'`. */
export function apiKeyAuthInfo(identity: ApiKeyIdentity): AuthInfo {
  const claims = { sub: identity.owner, key_id: identity.keyId, ...(identity.tenant !== undefined ? { [API_KEY_TENANT_CLAIM]: identity.tenant } : {}) };
  // A key acts for its owner without a user signing in: a machine caller (the auth module's rule reads token claims).
  return Object.assign(authInfoOf(identity.owner, identity.scopes, [], claims, { method: 'apiKey', keyId: identity.keyId }), { isMachine: true });
}

/**
 * The auth check of a route that accepts API keys (`auth` includes `apiKey`). Deployed, the Lambda authorizer has
 * verified the key and passed its identity in `requestContext.authorizer.lambda`; under `fw dev` (or deployed without
 * the authorizer) the registered verifier runs here. A request without a key falls back to the bearer token when the
 * route accepts `jwt`. Every scope the route lists is required, as for tokens.
 */
export async function authorizeWithMethods(
  event: APIGatewayProxyEventV2,
  headers: Readonly<Record<string, string | undefined>>,
  methods: readonly AuthMethod[],
  requiredScopes: readonly string[],
): Promise<AuthInfo | undefined> {
  const fromAuthorizer = lambdaAuthorizerOf(event);
  let auth: AuthInfo | undefined;
  if (fromAuthorizer?.authMethod === 'apiKey' && typeof fromAuthorizer.keyId === 'string' && typeof fromAuthorizer.owner === 'string') {
    const scopes = typeof fromAuthorizer.scopes === 'string' ? fromAuthorizer.scopes.split(' ').filter(Boolean) : [];
    const tenant = typeof fromAuthorizer.tenant === 'string' ? fromAuthorizer.tenant : undefined;
    auth = apiKeyAuthInfo({ keyId: fromAuthorizer.keyId, owner: fromAuthorizer.owner, scopes, ...(tenant !== undefined ? { tenant } : {}) });
  } else {
    const key = apiKeyOf(headers);
    if (key !== undefined) {
      if (!registeredVerifier) {
        throw new RuntimeError(
          'FW_ERR_API_KEY_VERIFIER_MISSING',
          "This route accepts API keys (auth: [..., 'apiKey']) but no verifier is registered: create one with createApiKeys(...) from @framework/integrations in a module the route imports",
        );
      }
      auth = apiKeyAuthInfo(await registeredVerifier(key));
    } else if (methods.includes('jwt')) {
      auth = authFromEvent(event) ?? (await verifiedBearer(headers));
    }
  }
  if (!auth) {
    const accepted = methods.map((m) => (m === 'jwt' ? 'a bearer token (Authorization: Bearer <access token>)' : 'an API key (X-API-Key: <key>)')).join(' or ');
    throw new Unauthorized(`This route requires ${accepted}`);
  }
  const resourceServer = process.env[ENV.authResourceServer];
  const missing = requiredScopes.filter((s) => !auth.scopes.some((granted) => grants(granted, s, resourceServer)));
  if (missing.length > 0) throw new InsufficientScope(requiredScopes, missing);
  return auth;
}

// Loaded through a registration: from here on `handler()` routes with `auth: [..., 'apiKey']` use this check.
installAuthMethods(authorizeWithMethods);
