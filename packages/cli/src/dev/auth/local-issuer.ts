import { randomUUID } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { SignJWT, exportJWK, generateKeyPair, importJWK, jwtVerify, type JWK, type JWTPayload, type CryptoKey } from 'jose';

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
  readonly sub: string;
  readonly scopes: readonly string[];
  /** App client name (becomes `aud` and `client_id`). */
  readonly client: string;
  /** Seconds. @default 3600 */
  readonly expiresIn?: number;
}

/**
 * The local identity provider: an RS256 key pair generated once per project and kept under `.fw/dev/auth/`, so
 * tokens minted yesterday still verify after a restart; the issuer is the dev server's URL. Tokens look like the
 * identity provider's access tokens (`sub`, `scope`, `client_id`, `token_use: access`) plus `aud` (the app client),
 * which the gateway's JWT authorizer checks.
 */
export class LocalIssuer {
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
      const pair = await generateKeyPair('RS256', { extractable: true });
      jwk = { ...(await exportJWK(pair.privateKey)), kid: randomUUID(), alg: 'RS256', use: 'sig' };
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(file, `${JSON.stringify(jwk, null, 2)}\n`, { mode: 0o600 });
    }
    const { d: _d, p: _p, q: _q, dp: _dp, dq: _dq, qi: _qi, ...publicJwk } = jwk;
    const privateKey = (await importJWK(jwk, 'RS256')) as CryptoKey;
    const publicKey = (await importJWK(publicJwk, 'RS256')) as CryptoKey;
    return new LocalIssuer(issuer, audiences, privateKey, publicKey, publicJwk);
  }

  jwks(): { keys: JWK[] } {
    return { keys: [this.publicJwk] };
  }

  async mint(options: MintOptions): Promise<{ token: string; expiresAt: number }> {
    const now = Math.floor(Date.now() / 1000);
    const expiresAt = now + (options.expiresIn ?? 3600);
    const token = await new SignJWT({ scope: options.scopes.join(' '), client_id: options.client, token_use: 'access', username: options.sub })
      .setProtectedHeader({ alg: 'RS256', kid: this.publicJwk.kid!, typ: 'JWT' })
      .setIssuer(this.issuer)
      .setSubject(options.sub)
      .setAudience(options.client)
      .setIssuedAt(now)
      .setExpirationTime(expiresAt)
      .setJti(randomUUID())
      .sign(this.privateKey);
    return { token, expiresAt };
  }

  /** Verifies signature, expiry, issuer and audience, as the HTTP API's JWT authorizer does. */
  async verify(token: string): Promise<VerifiedToken> {
    let payload: JWTPayload;
    try {
      ({ payload } = await jwtVerify(token, this.publicKey, { issuer: this.issuer, audience: [...this.audiences], algorithms: ['RS256'] }));
    } catch (error) {
      const e = error as { code?: string; claim?: string; message?: string };
      const why =
        e.code === 'ERR_JWT_EXPIRED'
          ? 'the token has expired'
          : e.code === 'ERR_JWT_CLAIM_VALIDATION_FAILED'
            ? `the token's "${e.claim}" claim is not accepted here (issuer ${this.issuer}, audience ${this.audiences.join(', ')})`
            : e.code === 'ERR_JWS_SIGNATURE_VERIFICATION_FAILED'
              ? 'the token signature does not verify against this dev server\'s key'
              : `the token is malformed (${e.message ?? 'unreadable'})`;
      throw new TokenRejected(why);
    }
    return { claims: gatewayClaims(payload), scopes: scopesOf(payload) };
  }
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
