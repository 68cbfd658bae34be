import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import type { AuthMethod } from '@framework/core/names';
import { InsufficientScope, RuntimeError, Unauthorized } from '../errors.js';
import { installAuthMethods } from './auth-methods-hook.js';
import { authFromEvent, authInfoOf, grants, type AuthInfo } from './auth.js';
import { ENV, TENANT_CLAIM } from '@framework/core/names';

export type { AuthMethod } from '@framework/core/names';

/**
 * The claim a key's tenant arrives in (`ctx.auth.claims`): the one `@framework-pro/tenancy` reads by default, so a
 * key is bound to the tenant it was issued for.
 */
export const API_KEY_TENANT_CLAIM = TENANT_CLAIM;

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

/**
 * The key a request presents: `Authorization: Bearer <key>` when it has the key's `sk_` form, else `X-API-Key: <key>`.
 * Authorization first: the deployed authorizer caches on it, so a request carrying keys in both is the one it names.
 */
export function apiKeyOf(headers: Readonly<Record<string, string | undefined>>): string | undefined {
  const bearer = /^Bearer\s+(sk_\S+)\s*$/i.exec(headers['authorization'] ?? '');
  if (bearer) return bearer[1];
  return headers['x-api-key']?.trim() || undefined;
}

/** A key's rate limit, as its record holds it. */
export interface ApiKeyRateLimitSetting {
  readonly requests: number;
  readonly windowSeconds: number;
}

/**
 * Counts one request of a key the Lambda authorizer verified against the key's rate limit, in this container; throws
 * the 429 when it is over. The authorizer cannot count: API Gateway caches its verdict, so most requests never reach
 * it. `createApiKeys(...)` registers one.
 */
export type ApiKeyRateLimitCheck = (keyId: string, limit: ApiKeyRateLimitSetting) => void;

let registeredRateLimitCheck: ApiKeyRateLimitCheck | undefined;

/** Sets the rate-limit check of keys verified by the Lambda authorizer (the last registration wins; `undefined` removes it). */
export function registerApiKeyRateLimitCheck(check: ApiKeyRateLimitCheck | undefined): void {
  registeredRateLimitCheck = check;
}

/**
 * The context the HTTP API's Lambda authorizer (`@framework/integrations/api-key-authorizer`) returns and API Gateway
 * hands to the route as `requestContext.authorizer.lambda`: flat strings, so it survives any authorizer response
 * format. A key: `authMethod: 'apiKey'`, `keyId`, `owner`, `scopes` (space-separated), `tenant`, `rateLimit`
 * (`<requests>/<windowSeconds>`). A token: `authMethod: 'jwt'`, `subject`, `scopes`, `groups` (space-separated) and
 * `claims` (JSON).
 */
export type LambdaAuthorizerContext = Readonly<Record<string, string>>;

/** The authorizer context of a verified key (see `LambdaAuthorizerContext`). */
export function apiKeyAuthorizerContext(identity: ApiKeyIdentity, rateLimit?: ApiKeyRateLimitSetting): LambdaAuthorizerContext {
  return {
    authMethod: 'apiKey',
    keyId: identity.keyId,
    owner: identity.owner,
    scopes: identity.scopes.join(' '),
    ...(identity.tenant !== undefined ? { tenant: identity.tenant } : {}),
    ...(rateLimit ? { rateLimit: `${rateLimit.requests}/${rateLimit.windowSeconds}` } : {}),
  };
}

/** The authorizer context of a verified bearer token (see `LambdaAuthorizerContext`). */
export function accessTokenAuthorizerContext(token: VerifiedAccessToken): LambdaAuthorizerContext {
  return { authMethod: 'jwt', subject: token.subject, scopes: token.scopes.join(' '), groups: token.groups.join(' '), claims: JSON.stringify(token.claims) };
}

interface ReceivedAuthorizerContext {
  readonly authMethod?: unknown;
  readonly keyId?: unknown;
  readonly owner?: unknown;
  readonly scopes?: unknown;
  readonly tenant?: unknown;
  readonly rateLimit?: unknown;
  readonly subject?: unknown;
  readonly groups?: unknown;
  readonly claims?: unknown;
}

function lambdaAuthorizerOf(event: APIGatewayProxyEventV2): ReceivedAuthorizerContext | undefined {
  const authorizer = (event.requestContext as { authorizer?: { lambda?: ReceivedAuthorizerContext } }).authorizer;
  return authorizer?.lambda;
}

const words = (value: unknown): string[] => (typeof value === 'string' ? value.split(' ').filter(Boolean) : []);

/** `ctx.auth` from the Lambda authorizer's context, or undefined when it verified nothing this function can read. */
function authFromLambdaAuthorizer(context: ReceivedAuthorizerContext | undefined): AuthInfo | undefined {
  if (context?.authMethod === 'apiKey' && typeof context.keyId === 'string' && typeof context.owner === 'string') {
    const tenant = typeof context.tenant === 'string' ? context.tenant : undefined;
    const limit = typeof context.rateLimit === 'string' ? /^(\d+)\/(\d+)$/.exec(context.rateLimit) : null;
    if (limit && registeredRateLimitCheck) registeredRateLimitCheck(context.keyId, { requests: Number(limit[1]), windowSeconds: Number(limit[2]) });
    return apiKeyAuthInfo({ keyId: context.keyId, owner: context.owner, scopes: words(context.scopes), ...(tenant !== undefined ? { tenant } : {}) });
  }
  if (context?.authMethod === 'jwt' && typeof context.subject === 'string' && typeof context.claims === 'string') {
    let claims: Record<string, unknown>;
    try {
      claims = JSON.parse(context.claims) as Record<string, unknown>;
    } catch {
      return undefined;
    }
    return authInfoOf(context.subject, words(context.scopes), words(context.groups), claims);
  }
  return undefined;
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
 * verified the key or the token and passed the caller in `requestContext.authorizer.lambda` (a key's rate limit is
 * counted here, by the registered check); under `fw dev` (or deployed without the authorizer) the registered verifier
 * runs here. A request without a key falls back to the bearer token when the
 * route accepts `jwt`. Every scope the route lists is required, as for tokens.
 */
export async function authorizeWithMethods(
  event: APIGatewayProxyEventV2,
  headers: Readonly<Record<string, string | undefined>>,
  methods: readonly AuthMethod[],
  requiredScopes: readonly string[],
): Promise<AuthInfo | undefined> {
  const fromAuthorizer = authFromLambdaAuthorizer(lambdaAuthorizerOf(event));
  // The authorizer serves every route that accepts keys: a token it verified counts only where tokens are accepted.
  let auth = fromAuthorizer && (fromAuthorizer.method === 'apiKey' || methods.includes('jwt')) ? fromAuthorizer : undefined;
  if (!auth && !fromAuthorizer) {
    // A token the gateway verified (fw dev's JWT check, when Authorization carries a token) is the caller, as the
    // deployed authorizer, keyed on Authorization, would have it: an X-API-Key beside it is not read.
    const gatewayVerified = methods.includes('jwt') ? authFromEvent(event) : undefined;
    const key = gatewayVerified ? undefined : apiKeyOf(headers);
    if (gatewayVerified) auth = gatewayVerified;
    else if (key !== undefined) {
      if (!registeredVerifier) {
        throw new RuntimeError(
          'FW_ERR_API_KEY_VERIFIER_MISSING',
          "This route accepts API keys (auth: [..., 'apiKey']) but no verifier is registered: create one with createApiKeys(...) from @framework/integrations in a module the route imports",
        );
      }
      auth = apiKeyAuthInfo(await registeredVerifier(key));
    } else if (methods.includes('jwt')) {
      auth = await verifiedBearer(headers);
    }
  }
  if (!auth) {
    const accepted = methods.map((m) => (m === 'jwt' ? 'a bearer token (Authorization: Bearer <access token>)' : 'an API key (Authorization: Bearer sk_...)')).join(' or ');
    throw new Unauthorized(`This route requires ${accepted}`);
  }
  const resourceServer = process.env[ENV.authResourceServer];
  const caller = auth;
  const missing = requiredScopes.filter((s) => !caller.scopes.some((granted) => grants(granted, s, resourceServer)));
  if (missing.length > 0) throw new InsufficientScope(requiredScopes, missing);
  return caller;
}

// Loaded through a registration: from here on `handler()` routes with `auth: [..., 'apiKey']` use this check.
installAuthMethods(authorizeWithMethods);
