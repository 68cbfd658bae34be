import { expect } from 'chai';
import { SignJWT } from 'jose';
import { verifyJwt } from '../../src/index.js';
import { JwksServer, signingKey, type SigningKey } from '../helpers/token-issuer.js';

describe('verifyJwt (jose) for issuers other than the app\'s pool', () => {
  let key: SigningKey;
  let server: JwksServer;
  const issuer = 'https://login.partner.example/';
  const audience = 'api://tasks';

  before(async () => {
    key = await signingKey('partner-key');
    server = await JwksServer.start({ '/keys': [key.publicJwk] });
  });
  after(() => server.stop());

  const sign = (claims: Record<string, unknown>, options: { kid?: string; expiresIn?: number; with?: SigningKey } = {}) => {
    const now = Math.floor(Date.now() / 1000);
    return new SignJWT({ sub: 'svc-1', iss: issuer, aud: audience, iat: now, exp: now + (options.expiresIn ?? 600), ...claims })
      .setProtectedHeader({ alg: 'RS256', kid: options.kid ?? key.kid })
      .sign((options.with ?? key).privateKey);
  };
  const codeOf = async (promise: Promise<unknown>) => promise.then(() => 'resolved', (error: { code?: string }) => error.code);

  it('verifies against a JWKS URL (fetched once) or a JWKS given inline', async () => {
    server.requests = 0;
    const jwksUri = `${server.url}/keys`;
    expect((await verifyJwt(await sign({}), { jwksUri, issuer, audience })).sub).to.equal('svc-1');
    expect((await verifyJwt(await sign({ sub: 'svc-2' }), { jwksUri, issuer, audience: [audience, 'other'] })).sub).to.equal('svc-2');
    expect(server.requests).to.equal(1);
    expect((await verifyJwt(await sign({}), { jwks: { keys: [key.publicJwk] }, issuer, audience })).sub).to.equal('svc-1');
  });

  it('refuses expired, other issuer, other audience, unknown kid and a bad signature, each with its code', async () => {
    const options = { jwksUri: `${server.url}/keys`, issuer, audience };
    expect(await codeOf(verifyJwt(await sign({}, { expiresIn: -10 }), options))).to.equal('FW_ERR_AUTH_TOKEN_EXPIRED');
    expect(await codeOf(verifyJwt(await sign({ iss: 'https://evil.example/' }), options))).to.equal('FW_ERR_AUTH_WRONG_ISSUER');
    expect(await codeOf(verifyJwt(await sign({ aud: 'api://billing' }), options))).to.equal('FW_ERR_AUTH_WRONG_CLIENT');
    expect(await codeOf(verifyJwt(await sign({}, { kid: 'unknown', with: await signingKey('unknown') }), { ...options, jwks: { keys: [key.publicJwk] } }))).to.equal('FW_ERR_AUTH_UNKNOWN_KID');
    expect(await codeOf(verifyJwt(await sign({}, { with: await signingKey('partner-key') }), options))).to.equal('FW_ERR_AUTH_INVALID_TOKEN');
  });

  it('says FW_ERR_AUTH_JWKS_UNAVAILABLE (not a token error) when the JWKS URL answers 404 or nothing', async () => {
    expect(await codeOf(verifyJwt(await sign({}), { jwksUri: `${server.url}/missing`, issuer, audience }))).to.equal('FW_ERR_AUTH_JWKS_UNAVAILABLE');
    expect(await codeOf(verifyJwt(await sign({}), { jwksUri: 'http://127.0.0.1:1/keys', issuer, audience }))).to.equal('FW_ERR_AUTH_JWKS_UNAVAILABLE');
  });

  it('needs jwksUri or jwks', async () => {
    expect(await codeOf(verifyJwt('a.b.c', { issuer, audience }))).to.equal('FW_ERR_AUTH_NOT_CONFIGURED');
  });
});
