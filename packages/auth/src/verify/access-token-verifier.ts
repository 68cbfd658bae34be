import { CognitoJwtVerifier, JwtVerifier } from 'aws-jwt-verify';
import { validateCognitoJwtFields } from 'aws-jwt-verify/cognito-verifier';
import { SimpleJwksCache, type Jwks, type JwksCache } from 'aws-jwt-verify/jwk';
import type { JwtPayload } from 'aws-jwt-verify/jwt-model';
import { ENV, TOKEN_VERIFIER_ENV } from '@framework/core/names';
import { AuthNotConfiguredError } from '../errors.js';
import { accessTokenOf, type AccessToken } from './access-token.js';
import { HttpFetcher } from './http-fetcher.js';
import { preloadedJwksOf } from './preloaded-jwks.js';
import { rejection } from './rejection.js';

/** A Cognito user pool and the app clients whose access tokens it accepts. */
export interface CognitoPool {
  /** `eu-west-1_AbCdEf123`. */
  readonly userPoolId: string;
  /** App client ids; a token whose `client_id` is not one of them is refused. */
  readonly clientIds: readonly string[];
}

/** An issuer of Cognito-shaped access tokens that is not a Cognito pool: `fw dev`'s local issuer, a test issuer. */
export interface AccessTokenIssuer {
  /** The exact `iss` of its tokens. */
  readonly issuer: string;
  /** Where its JWKS is served (HTTP is accepted: the local issuer listens on 127.0.0.1). */
  readonly jwksUri: string;
  readonly clientIds: readonly string[];
}

/** Options of every verifier. */
export interface AccessTokenVerifierOptions {
  /**
   * Where keys are cached: by default the verifier's own cache, which lives as long as the verifier (keep the verifier
   * at module scope and a warm Lambda never fetches the JWKS again).
   * @default - an aws-jwt-verify SimpleJwksCache
   */
  readonly jwksCache?: JwksCache;
}

interface Engine {
  verify(token: string): Promise<JwtPayload>;
  hydrate(): Promise<void>;
  cacheJwks(jwks: Jwks, key?: string): void;
}

/**
 * Verifies access tokens with aws-jwt-verify: signature against the issuer's JWKS (the key named by `kid`), `iss`,
 * `exp` (and `nbf`), `token_use: access`, and `client_id` among the accepted app clients. The checks are the same for a
 * Cognito pool, several pools (the pool is chosen by the token's `iss`) and a Cognito-shaped issuer such as `fw dev`'s.
 * A failed check is one of this package's `TokenRejectedError`s (see the README's error table).
 */
export class AccessTokenVerifier {
  /** The deployed pool (aws-jwt-verify's `CognitoJwtVerifier`). */
  static forPool(pool: CognitoPool, options: AccessTokenVerifierOptions = {}): AccessTokenVerifier {
    const clientId = clientIdsOf(pool);
    const verifier = CognitoJwtVerifier.create({ userPoolId: pool.userPoolId, tokenUse: 'access', clientId }, options.jwksCache ? { jwksCache: options.jwksCache } : undefined);
    return new AccessTokenVerifier(verifier, CognitoJwtVerifier.parseUserPoolId(pool.userPoolId).jwksUri);
  }

  /**
   * Several pools (one per tenant): the token's `iss` selects its pool, whose keys and app clients then apply. A token
   * of a pool not in the list is a `WrongIssuerError`.
   */
  static forPools(pools: readonly CognitoPool[], options: AccessTokenVerifierOptions = {}): AccessTokenVerifier {
    if (pools.length === 0) throw new AuthNotConfiguredError('the verifier was given no user pool');
    const verifier = CognitoJwtVerifier.create(
      pools.map((pool) => ({ userPoolId: pool.userPoolId, tokenUse: 'access' as const, clientId: clientIdsOf(pool) })),
      options.jwksCache ? { jwksCache: options.jwksCache } : undefined,
    );
    return new AccessTokenVerifier(verifier, undefined);
  }

  /** A Cognito-shaped issuer that is not a pool (`fw dev`'s): aws-jwt-verify's `JwtVerifier` with Cognito's checks. */
  static forIssuer(issuer: AccessTokenIssuer, options: AccessTokenVerifierOptions = {}): AccessTokenVerifier {
    const clientId = clientIdsOf(issuer);
    const verifier = JwtVerifier.create(
      {
        issuer: issuer.issuer,
        jwksUri: issuer.jwksUri,
        // Cognito access tokens carry no `aud`: the client is checked on `client_id`, as CognitoJwtVerifier does.
        audience: null,
        customJwtCheck: ({ payload }) => validateCognitoJwtFields(payload, { tokenUse: 'access', clientId }),
      },
      { jwksCache: options.jwksCache ?? new SimpleJwksCache({ fetcher: new HttpFetcher() }) },
    );
    return new AccessTokenVerifier(verifier, issuer.jwksUri);
  }

  /**
   * The app's own pool, from the variables the auth intent sets: under `fw dev` (`FW_DEV_ENDPOINT` set) the local
   * issuer (`FW_AUTH_ISSUER`, its JWKS at `/.well-known/jwks.json`), deployed the Cognito pool
   * (`FW_AUTH_USER_POOL_ID`); the accepted clients are `FW_AUTH_AUDIENCE` in both. A JWKS preloaded at deploy
   * (`FW_AUTH_JWKS`) goes straight into the cache: the first verification makes no network call, and a token of a key
   * it lacks (after a rotation) still fetches the JWKS.
   */
  static fromEnvironment(env: NodeJS.ProcessEnv = process.env, options: AccessTokenVerifierOptions = {}): AccessTokenVerifier {
    const clientIds = (env[ENV.authAudience] ?? '').split(',').map((s) => s.trim()).filter(Boolean);
    let verifier: AccessTokenVerifier;
    if (env[ENV.devEndpoint]) {
      const issuer = env[ENV.authIssuer];
      if (!issuer) throw new AuthNotConfiguredError(`${ENV.authIssuer} is not set`);
      verifier = AccessTokenVerifier.forIssuer({ issuer, jwksUri: `${issuer.replace(/\/+$/, '')}/.well-known/jwks.json`, clientIds }, options);
    } else {
      const userPoolId = env[ENV.authUserPoolId];
      if (!userPoolId) throw new AuthNotConfiguredError(`${ENV.authUserPoolId} is not set`);
      verifier = AccessTokenVerifier.forPool({ userPoolId, clientIds }, options);
    }
    const preloaded = preloadedJwksOf(env[TOKEN_VERIFIER_ENV.jwks]);
    if (preloaded) verifier.cacheJwks(preloaded);
    return verifier;
  }

  private constructor(
    private readonly engine: Engine,
    private readonly jwksUri: string | undefined,
  ) {}

  /** The token's claims when every check passes; a `TokenRejectedError` (or `JwksUnavailableError`) otherwise. */
  async verify(token: string): Promise<AccessToken> {
    let payload: JwtPayload;
    try {
      payload = await this.engine.verify(token);
    } catch (error) {
      throw rejection(error, this.jwksUri);
    }
    return accessTokenOf(payload);
  }

  /** Fetches the JWKS now (at cold start, before the first request), so no request waits for it. */
  async hydrate(): Promise<void> {
    try {
      await this.engine.hydrate();
    } catch (error) {
      throw rejection(error, this.jwksUri);
    }
  }

  /** Puts a JWKS into the cache (known at build time): no fetch at all. With several pools, name the pool. */
  cacheJwks(jwks: Jwks, userPoolId?: string): void {
    this.engine.cacheJwks(jwks, userPoolId);
  }
}

function clientIdsOf(source: { readonly clientIds: readonly string[] }): string[] {
  const ids = [...source.clientIds];
  if (ids.length === 0) throw new AuthNotConfiguredError(`no app client id to accept (${ENV.authAudience} is empty: declare an app client in config/security.ts)`);
  return ids;
}

/** How long the variables are trusted before they are read again (fw dev replaces them when the app reloads). */
const VARIABLES_RECHECK_MS = 1000;

let fromEnvironment: { readonly key: string; readonly verifier: AccessTokenVerifier; checkedAt: number } | undefined;

/**
 * Verifies an access token of the app's own pool (or of `fw dev`'s issuer when run there): one verifier per set of
 * variables, kept at module scope, so its JWKS is fetched once per Lambda container and reused by every invocation.
 * The variables are read again at most once a second: reading `process.env` costs about 0.5 µs a variable, a tenth
 * of the verification itself on a warm JWKS.
 */
export async function verifyAccessToken(token: string): Promise<AccessToken> {
  const now = Date.now();
  if (!fromEnvironment || now - fromEnvironment.checkedAt >= VARIABLES_RECHECK_MS) {
    const key = [ENV.devEndpoint, ENV.authIssuer, ENV.authUserPoolId, ENV.authAudience, TOKEN_VERIFIER_ENV.jwks].map((name) => process.env[name] ?? '').join('\n');
    if (fromEnvironment?.key !== key) fromEnvironment = { key, verifier: AccessTokenVerifier.fromEnvironment(process.env), checkedAt: now };
    else fromEnvironment.checkedAt = now;
  }
  return fromEnvironment.verifier.verify(token);
}
