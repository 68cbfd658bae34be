import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { SignJWT, exportJWK, generateKeyPair, type CryptoKey, type JWK, type JWTPayload } from 'jose';

/** A signing key pair with its public JWK (kid set), as an issuer holds it. */
export interface SigningKey {
  readonly kid: string;
  readonly privateKey: CryptoKey;
  readonly publicJwk: JWK;
}

export async function signingKey(kid: string): Promise<SigningKey> {
  const pair = await generateKeyPair('RS256', { extractable: true });
  return { kid, privateKey: pair.privateKey, publicJwk: { ...(await exportJWK(pair.publicKey)), kid, alg: 'RS256', use: 'sig' } };
}

/** A Cognito-shaped access token (`client_id`, `token_use: access`, no `aud`), with `overrides` on top. */
export async function accessToken(key: SigningKey, claims: { iss: string; client_id: string } & JWTPayload, options: { expiresIn?: number; kid?: string } = {}): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({ sub: 'user-1', token_use: 'access', scope: 'tasks-api/tasks:read', username: 'user-1', auth_time: now, iat: now, exp: now + (options.expiresIn ?? 3600), ...claims })
    .setProtectedHeader({ alg: 'RS256', kid: options.kid ?? key.kid })
    .sign(key.privateKey);
}

/**
 * A real JWKS endpoint on 127.0.0.1 (a free port): serves `/<path>` with the keys of each path, counts the requests.
 */
export class JwksServer {
  requests = 0;
  private constructor(
    private readonly server: http.Server,
    readonly url: string,
    private readonly keysByPath: Map<string, JWK[]>,
  ) {}

  static async start(keysByPath: Record<string, JWK[]>): Promise<JwksServer> {
    const keys = new Map(Object.entries(keysByPath));
    const server = http.createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const jwks = new JwksServer(server, url, keys);
    server.on('request', (request, response) => {
      jwks.requests += 1;
      const set = keys.get(request.url ?? '');
      response.writeHead(set ? 200 : 404, { 'content-type': 'application/json' }).end(set ? JSON.stringify({ keys: set }) : '{}');
    });
    return jwks;
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
