import { expect } from 'chai';
import { SimpleJwksCache } from 'aws-jwt-verify/jwk';
import {
  AccessTokenVerifier,
  AuthNotConfiguredError,
  InvalidTokenError,
  JwksUnavailableError,
  NotAccessTokenError,
  TokenExpiredError,
  TokenRejectedError,
  UnknownKeyError,
  WrongClientError,
  WrongIssuerError,
  verifyAccessToken,
} from '../../src/index.js';
import { HttpFetcher } from '../../src/verify/http-fetcher.js';
import { JwksServer, accessToken, signingKey, type SigningKey } from '../helpers/token-issuer.js';

/** The error `promise` rejects with (fails when it resolves). */
async function rejectionOf(promise: Promise<unknown>): Promise<Error & { code?: string }> {
  try {
    await promise;
  } catch (error) {
    return error as Error & { code?: string };
  }
  expect.fail('expected a rejection');
}

const ENV_NAMES = ['FW_DEV_ENDPOINT', 'FW_AUTH_ISSUER', 'FW_AUTH_AUDIENCE', 'FW_AUTH_USER_POOL_ID'] as const;

describe('verifyAccessToken under fw dev (the local issuer\'s JWKS over loopback HTTP)', () => {
  let key: SigningKey;
  let server: JwksServer;
  let issuer: string;
  const saved: Record<string, string | undefined> = {};

  before(async () => {
    key = await signingKey('dev-key');
    server = await JwksServer.start({ '/.well-known/jwks.json': [key.publicJwk] });
    issuer = server.url;
  });
  after(() => server.stop());
  beforeEach(() => {
    for (const name of ENV_NAMES) saved[name] = process.env[name];
    // Given the variables fw dev sets for a function of an app with the auth intent
    process.env.FW_DEV_ENDPOINT = issuer;
    process.env.FW_AUTH_ISSUER = issuer;
    process.env.FW_AUTH_AUDIENCE = 'local-web,local-reporting';
    delete process.env.FW_AUTH_USER_POOL_ID;
    server.requests = 0;
  });
  afterEach(() => {
    for (const name of ENV_NAMES) {
      if (saved[name] === undefined) delete process.env[name];
      else process.env[name] = saved[name];
    }
  });

  it('accepts a valid access token, fetching the JWKS once for many verifications', async () => {
    const token = await accessToken(key, { iss: issuer, client_id: 'local-web', 'cognito:groups': ['member'] });
    const first = await verifyAccessToken(token);
    const second = await verifyAccessToken(await accessToken(key, { iss: issuer, client_id: 'local-reporting' }));
    expect(first).to.deep.include({ subject: 'user-1', clientId: 'local-web', scopes: ['tasks-api/tasks:read'], groups: ['member'], isMachine: false, issuer });
    expect(second.clientId).to.equal('local-reporting');
    expect(server.requests).to.equal(1);
  });

  it('tells a machine token (sub = client id, no username) from a user token', async () => {
    const token = await accessToken(key, { iss: issuer, client_id: 'local-reporting', sub: 'local-reporting', username: undefined });
    expect((await verifyAccessToken(token)).isMachine).to.equal(true);
  });

  const cases: Array<[string, () => Promise<string>, new (...args: never[]) => TokenRejectedError, string]> = [
    ['an expired token', () => accessToken(key, { iss: issuer, client_id: 'local-web' }, { expiresIn: -60 }), TokenExpiredError, 'FW_ERR_AUTH_TOKEN_EXPIRED'],
    ['a token of another issuer', () => accessToken(key, { iss: 'https://cognito-idp.eu-west-1.amazonaws.com/eu-west-1_Other', client_id: 'local-web' }), WrongIssuerError, 'FW_ERR_AUTH_WRONG_ISSUER'],
    ['a token of another app client', () => accessToken(key, { iss: issuer, client_id: 'someone-else' }), WrongClientError, 'FW_ERR_AUTH_WRONG_CLIENT'],
    ['a token signed with a key the issuer does not publish', async () => accessToken(await signingKey('rotated-out'), { iss: issuer, client_id: 'local-web' }), UnknownKeyError, 'FW_ERR_AUTH_UNKNOWN_KID'],
    ['an ID token (token_use: id)', () => accessToken(key, { iss: issuer, client_id: 'local-web', token_use: 'id', aud: 'local-web' }), NotAccessTokenError, 'FW_ERR_AUTH_NOT_ACCESS_TOKEN'],
    ['a token whose signature does not verify (right kid, other key)', async () => accessToken(await signingKey('x'), { iss: issuer, client_id: 'local-web' }, { kid: 'dev-key' }), InvalidTokenError, 'FW_ERR_AUTH_INVALID_TOKEN'],
  ];
  for (const [what, token, errorClass, code] of cases) {
    it(`refuses ${what}: ${code}`, async () => {
      const error = await rejectionOf(verifyAccessToken(await token()));
      expect(error).to.be.instanceOf(errorClass);
      expect(error).to.be.instanceOf(TokenRejectedError);
      expect(error.code).to.equal(code);
    });
  }

  it('refuses text that is not a JWT with FW_ERR_AUTH_INVALID_TOKEN', async () => {
    expect((await rejectionOf(verifyAccessToken('not.a.jwt'))).code).to.equal('FW_ERR_AUTH_INVALID_TOKEN');
  });

  it('says FW_ERR_AUTH_NOT_CONFIGURED when the function has no auth variables', () => {
    // (verifyAccessToken builds its verifier with fromEnvironment; it rereads the variables at most once a second)
    const { FW_AUTH_ISSUER: _issuer, ...withoutIssuer } = process.env;
    expect(() => AccessTokenVerifier.fromEnvironment(withoutIssuer)).to.throw(AuthNotConfiguredError, 'FW_AUTH_ISSUER is not set');
    const { FW_DEV_ENDPOINT: _dev, ...deployed } = withoutIssuer;
    expect(() => AccessTokenVerifier.fromEnvironment(deployed)).to.throw(AuthNotConfiguredError, 'FW_AUTH_USER_POOL_ID is not set');
  });

  it('says FW_ERR_AUTH_JWKS_UNAVAILABLE (not a token error) when the JWKS cannot be fetched', async () => {
    const verifier = AccessTokenVerifier.forIssuer({ issuer, jwksUri: `${issuer}/missing/jwks.json`, clientIds: ['local-web'] });
    const error = await rejectionOf(verifier.verify(await accessToken(key, { iss: issuer, client_id: 'local-web' })));
    expect(error).to.be.instanceOf(JwksUnavailableError);
    expect(error).not.to.be.instanceOf(TokenRejectedError);
  });
});

describe('AccessTokenVerifier on Cognito pools (CognitoJwtVerifier; only Cognito\'s JWKS endpoint is stood in for)', () => {
  const poolA = 'eu-west-1_PoolAaaaa';
  const poolB = 'eu-west-1_PoolBbbbb';
  const issuerOf = (pool: string) => `https://cognito-idp.eu-west-1.amazonaws.com/${pool}`;
  let keyA: SigningKey;
  let keyB: SigningKey;
  let server: JwksServer;
  /** Cognito's JWKS URLs answered by the local server: the one part of AWS these tests replace. */
  let jwksCache: () => SimpleJwksCache;

  before(async () => {
    keyA = await signingKey('key-a');
    keyB = await signingKey('key-b');
    server = await JwksServer.start({ [`/${poolA}/.well-known/jwks.json`]: [keyA.publicJwk], [`/${poolB}/.well-known/jwks.json`]: [keyB.publicJwk] });
    const http = new HttpFetcher();
    jwksCache = () => new SimpleJwksCache({ fetcher: { fetch: (uri: string) => http.fetch(uri.replace('https://cognito-idp.eu-west-1.amazonaws.com', server.url)) } });
  });
  after(() => server.stop());

  it('forPool: accepts the pool\'s access token for its clients, refuses another client and an ID token', async () => {
    const verifier = AccessTokenVerifier.forPool({ userPoolId: poolA, clientIds: ['client-web'] }, { jwksCache: jwksCache() });
    const ok = await verifier.verify(await accessToken(keyA, { iss: issuerOf(poolA), client_id: 'client-web' }));
    expect(ok).to.deep.include({ clientId: 'client-web', issuer: issuerOf(poolA) });
    expect((await rejectionOf(verifier.verify(await accessToken(keyA, { iss: issuerOf(poolA), client_id: 'client-other' })))).code).to.equal('FW_ERR_AUTH_WRONG_CLIENT');
    expect((await rejectionOf(verifier.verify(await accessToken(keyA, { iss: issuerOf(poolA), client_id: 'client-web', token_use: 'id', aud: 'client-web' })))).code).to.equal('FW_ERR_AUTH_NOT_ACCESS_TOKEN');
    expect((await rejectionOf(verifier.verify(await accessToken(keyA, { iss: issuerOf(poolB), client_id: 'client-web' })))).code).to.equal('FW_ERR_AUTH_WRONG_ISSUER');
  });

  it('forPools: picks the pool by iss (one pool per tenant); a pool not in the list is FW_ERR_AUTH_WRONG_ISSUER', async () => {
    const verifier = AccessTokenVerifier.forPools([{ userPoolId: poolA, clientIds: ['client-a'] }, { userPoolId: poolB, clientIds: ['client-b'] }], { jwksCache: jwksCache() });
    expect((await verifier.verify(await accessToken(keyA, { iss: issuerOf(poolA), client_id: 'client-a' }))).issuer).to.equal(issuerOf(poolA));
    expect((await verifier.verify(await accessToken(keyB, { iss: issuerOf(poolB), client_id: 'client-b' }))).issuer).to.equal(issuerOf(poolB));
    // A client of pool A is not accepted on a pool B token, and pool A's key does not sign for pool B
    expect((await rejectionOf(verifier.verify(await accessToken(keyB, { iss: issuerOf(poolB), client_id: 'client-a' })))).code).to.equal('FW_ERR_AUTH_WRONG_CLIENT');
    expect((await rejectionOf(verifier.verify(await accessToken(keyA, { iss: issuerOf(poolB), client_id: 'client-b' }, { kid: 'key-a' })))).code).to.equal('FW_ERR_AUTH_UNKNOWN_KID');
    expect((await rejectionOf(verifier.verify(await accessToken(keyA, { iss: issuerOf('eu-west-1_PoolCcccc'), client_id: 'client-a' })))).code).to.equal('FW_ERR_AUTH_WRONG_ISSUER');
  });

  it('refuses to build a verifier that accepts no client', () => {
    expect(() => AccessTokenVerifier.forPool({ userPoolId: poolA, clientIds: [] })).to.throw(AuthNotConfiguredError, /no app client id/);
  });
});
