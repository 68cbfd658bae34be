import { randomUUID, webcrypto } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { JWK, JWTPayload, CryptoKey } from 'jose';
import { TENANT_CLAIM } from '@framework/core/names';

/**
 * jose, loaded on the first token signed or checked (or key generated): an app without auth never needs it, and its
 * 46 modules cost `fw dev` start-up time before the first request otherwise.
 */
let joseModule: Promise<typeof import('jose')> | undefined;
const jose = (): Promise<typeof import('jose')> => (joseModule ??= import('jose'));

/** Where the signing key lives: `<project>/.fw/dev/auth/signing-key.json` (private; never commit `.fw/`). */
export function signingKeyPath(dataDir: string): string {
  return path.join(dataDir, 'dev', 'auth', 'signing-key.json');
}

/** What a verified token grants, in the shape the gateway's JWT authorizer passes on. */
export interface VerifiedToken {
  readonly claims: Record<string, string>;
  readonly scopes: string[];
}

/** Why a token was refused; the dev server answers 401 with this text. */
export class TokenRejected extends Error {}

/** Options of a minted token. */
export interface MintOptions {
  /** The user id; absent for a machine (client-credentials) token, whose `sub` is the client id. */
  readonly sub?: string;
  /** The user's name (`username`) when it is not the `sub` (a signed-in user's `sub` is a UUID). @default sub */
  readonly username?: string;
  /** Scopes as the token carries them (custom scopes prefixed with the resource server: `tasks-api/tasks:read`). */
  readonly scopes: readonly string[];
  /** The app client's id (`client_id`). */
  readonly clientId: string;
  /** The user's groups (`cognito:groups`, only when there are some). */
  readonly groups?: readonly string[];
  /** Seconds. @default 3600 */
  readonly expiresIn?: number;
  /** The user's tenant, as the `custom:tenant_id` claim (a Cognito custom attribute). @default - none */
  readonly tenant?: string;
}

/** The claim a user's tenant travels in (core's, which the Cognito pool's trigger writes and tenancy reads). */
export { TENANT_CLAIM } from '@framework/core/names';

/**
 * The local identity provider: an RS256 key pair generated once per project and kept under `.fw/dev/auth/`, so
 * tokens minted yesterday still verify after a restart; the issuer is the dev server's URL. Tokens are shaped as
 * Cognito's access tokens: `client_id` (no `aud`: the gateway's JWT authorizer checks `client_id` then), `token_use:
 * access`, `scope` with the resource server's prefix, `cognito:groups` for a user in groups, and for a machine
 * (client-credentials) token the client id as `sub` and no `username`.
 */
export class LocalIssuer {
  /**
   * Tokens that verified, by their full text (a changed byte is another key, so a tampered token never hits), until
   * their `exp`: a client sends the same token on every request, and an RS256 check costs ~130 µs of CPU each.
   */
  private readonly verified = new Map<string, { readonly expiresAt: number; readonly result: VerifiedToken }>();
  /** How many tokens had their signature checked (cache hits do not count). */
  signatureChecks = 0;

  private constructor(
    readonly issuer: string,
    readonly audiences: readonly string[],
    private readonly privateKey: CryptoKey,
    private readonly publicKey: CryptoKey,
    readonly publicJwk: JWK,
  ) {}

  static async open(dataDir: string, issuer: string, audiences: readonly string[]): Promise<LocalIssuer> {
    const file = signingKeyPath(dataDir);
    let jwk: JWK;
    if (fs.existsSync(file)) {
      jwk = JSON.parse(fs.readFileSync(file, 'utf8')) as JWK;
    } else {
      // WebCrypto, as jose's `generateKeyPair('RS256')` and `exportJWK` do (2048 bits, e=65537; the JWK without the
      // WebCrypto-only `ext` and `key_ops`), so the first start needs no jose either.
      const pair = await webcrypto.subtle.generateKey({ name: 'RSASSA-PKCS1-v1_5', modulusLength: 2048, publicExponent: new Uint8Array([1, 0, 1]), hash: 'SHA-256' }, true, ['sign', 'verify']);
      const { ext: _ext, key_ops: _keyOps, alg: _alg, use: _use, ...exported } = await webcrypto.subtle.exportKey('jwk', pair.privateKey);
      jwk = { ...(exported as JWK), kid: randomUUID(), alg: 'RS256', use: 'sig' };
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(file, `${JSON.stringify(jwk, null, 2)}\n`, { mode: 0o600 });
    }
    const { d: _d, p: _p, q: _q, dp: _dp, dq: _dq, qi: _qi, ...publicJwk } = jwk;
    const algorithm = { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' };
    // WebCrypto's own import (what jose's `importJWK` does on Node), so opening needs no jose.
    const privateKey = (await webcrypto.subtle.importKey('jwk', jwk as webcrypto.JsonWebKey, algorithm, false, ['sign'])) as unknown as CryptoKey;
    const publicKey = (await webcrypto.subtle.importKey('jwk', publicJwk as webcrypto.JsonWebKey, algorithm, true, ['verify'])) as unknown as CryptoKey;
    return new LocalIssuer(issuer, audiences, privateKey, publicKey, publicJwk);
  }

  jwks(): { keys: JWK[] } {
    return { keys: [this.publicJwk] };
  }

  async mint(options: MintOptions): Promise<{ token: string; expiresAt: number }> {
    const now = Math.floor(Date.now() / 1000);
    const expiresAt = now + (options.expiresIn ?? 3600);
    // Cognito's access token: `client_id` and no `aud`; a user's carries `username` (and `cognito:groups` when the user
    // has groups), a client-credentials token has the client id as `sub` and no user claims.
    const claims: JWTPayload = options.sub === undefined
      ? { sub: options.clientId, token_use: 'access', scope: options.scopes.join(' '), auth_time: now, version: 2, client_id: options.clientId }
      : {
          'sub': options.sub,
          ...(options.groups?.length ? { 'cognito:groups': [...options.groups] } : {}),
          'version': 2,
          'client_id': options.clientId,
          'origin_jti': randomUUID(),
          'event_id': randomUUID(),
          'token_use': 'access',
          'scope': options.scopes.join(' '),
          'auth_time': now,
          'username': options.username ?? options.sub,
          ...(options.tenant !== undefined ? { [TENANT_CLAIM]: options.tenant } : {}),
        };
    const { SignJWT } = await jose();
    const token = await new SignJWT(claims)
      .setProtectedHeader({ alg: 'RS256', kid: this.publicJwk.kid! })
      .setIssuer(this.issuer)
      .setIssuedAt(now)
      .setExpirationTime(expiresAt)
      .setJti(randomUUID())
      .sign(this.privateKey);
    return { token, expiresAt };
  }

  /** Signs an ID token (the claims are the caller's: `aud`, `token_use: id`, ...) with this issuer's key. */
  async signIdToken(claims: JWTPayload, expiresIn: number): Promise<string> {
    const now = Math.floor(Date.now() / 1000);
    const { SignJWT } = await jose();
    return new SignJWT(claims)
      .setProtectedHeader({ alg: 'RS256', kid: this.publicJwk.kid! })
      .setIssuer(this.issuer)
      .setIssuedAt(now)
      .setExpirationTime(now + expiresIn)
      .setJti(randomUUID())
      .sign(this.privateKey);
  }

  /**
   * Verifies a token as the HTTP API's JWT authorizer does: the header's `kid` names a key of the JWKS, the signature
   * verifies with it, `iss` is this issuer, `exp` is present and in the future, `nbf` and `iat` are not in the future,
   * and the audience is `aud` when the token has one, else Cognito's `client_id` (access tokens carry no `aud`).
   */
  async verify(token: string): Promise<VerifiedToken> {
    const cached = this.verified.get(token);
    if (cached) {
      if (cached.expiresAt > Math.floor(Date.now() / 1000)) return copyOf(cached.result);
      this.verified.delete(token);
    }
    const result = await this.verifyOnce(token);
    if (this.verified.size >= MAX_CACHED_TOKENS) this.verified.delete(this.verified.keys().next().value!);
    this.verified.set(token, { expiresAt: Number(result.claims.exp), result });
    return copyOf(result);
  }

  private async verifyOnce(token: string): Promise<VerifiedToken> {
    this.signatureChecks += 1;
    const { decodeProtectedHeader, jwtVerify } = await jose();
    let kid: unknown;
    try {
      kid = decodeProtectedHeader(token).kid;
    } catch {
      throw new TokenRejected('the token is malformed (not a JWT)');
    }
    if (kid === undefined) throw new TokenRejected('the token header has no "kid"; the gateway picks the verifying key of the JWKS by kid');
    if (kid !== this.publicJwk.kid) throw new TokenRejected(`the token's "kid" ${JSON.stringify(kid)} names no key of this issuer's JWKS (${this.issuer}/.well-known/jwks.json)`);
    let payload: JWTPayload;
    try {
      ({ payload } = await jwtVerify(token, this.publicKey, { issuer: this.issuer, algorithms: ['RS256'], requiredClaims: ['exp'] }));
    } catch (error) {
      const e = error as { code?: string; claim?: string; message?: string };
      const why =
        e.code === 'ERR_JWT_EXPIRED'
          ? 'the token has expired'
          : e.code === 'ERR_JWT_CLAIM_VALIDATION_FAILED'
            ? e.claim === 'iss'
              ? `the token's issuer is not ${this.issuer}`
              : `the token's "${e.claim}" claim is not accepted (${e.message})`
            : e.code === 'ERR_JWS_SIGNATURE_VERIFICATION_FAILED'
              ? 'the token signature does not verify against this dev server\'s key'
              : `the token is malformed (${e.message ?? 'unreadable'})`;
      throw new TokenRejected(why);
    }
    if (typeof payload.iat === 'number' && payload.iat > Math.floor(Date.now() / 1000)) throw new TokenRejected('the token\'s "iat" is in the future');
    this.checkAudience(payload);
    return { claims: gatewayClaims(payload), scopes: scopesOf(payload) };
  }

  /** The gateway evaluates `aud` when present and `client_id` only when `aud` is absent. */
  private checkAudience(payload: JWTPayload): void {
    const accepted = `accepted: ${this.audiences.join(', ')}`;
    if (payload.aud !== undefined) {
      const audiences = Array.isArray(payload.aud) ? payload.aud : [payload.aud];
      if (!audiences.some((a) => this.audiences.includes(a))) throw new TokenRejected(`the token does not have a valid audience ("aud" ${JSON.stringify(payload.aud)}; ${accepted})`);
      return;
    }
    if (payload.client_id === undefined) throw new TokenRejected(`the token has neither "aud" nor "client_id" (${accepted})`);
    if (typeof payload.client_id !== 'string' || !this.audiences.includes(payload.client_id)) throw new TokenRejected(`the token does not have a valid audience ("client_id" ${JSON.stringify(payload.client_id)}; ${accepted})`);
  }
}

/** Verified tokens kept at most (the oldest is dropped first). */
const MAX_CACHED_TOKENS = 1000;

/** The caller may change what it gets: the cached answer stays as verified. */
function copyOf(token: VerifiedToken): VerifiedToken {
  return { claims: { ...token.claims }, scopes: [...token.scopes] };
}

/** Scopes from `scope` (space-separated) or `scp` (array). */
export function scopesOf(payload: JWTPayload): string[] {
  if (typeof payload.scope === 'string') return payload.scope.split(' ').filter(Boolean);
  if (Array.isArray(payload.scp)) return payload.scp.filter((s): s is string => typeof s === 'string');
  return [];
}

/** The gateway passes every claim as a string; arrays become `[a b]`. */
function gatewayClaims(payload: JWTPayload): Record<string, string> {
  const claims: Record<string, string> = {};
  for (const [name, value] of Object.entries(payload)) {
    claims[name] = typeof value === 'string' ? value : Array.isArray(value) ? `[${value.join(' ')}]` : typeof value === 'object' ? JSON.stringify(value) : String(value);
  }
  return claims;
}
