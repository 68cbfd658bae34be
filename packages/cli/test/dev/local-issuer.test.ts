import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { expect } from 'chai';
import { SignJWT, generateKeyPair, importJWK, type JWK, type JWTPayload, type CryptoKey } from 'jose';
import { LocalIssuer, TokenRejected, signingKeyPath } from '../../src/dev/auth/local-issuer.js';

/**
 * The local issuer's check follows the HTTP API's JWT authorizer rule by rule: `kid` names a key of the JWKS, `exp`
 * is required, `iss` must match, `nbf`/`iat` are not in the future, and the audience is `aud`, or `client_id` when the
 * token has no `aud` (Cognito access tokens).
 */
describe('local issuer: the HTTP API JWT authorizer rules', () => {
  const ISSUER = 'http://127.0.0.1:3999';
  let dir: string;
  let issuer: LocalIssuer;
  let signingKey: CryptoKey;
  let kid: string;
  const now = () => Math.floor(Date.now() / 1000);

  before(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fw-issuer-test-'));
    issuer = await LocalIssuer.open(dir, ISSUER, ['web', 'reporting']);
    const jwk = JSON.parse(fs.readFileSync(signingKeyPath(dir), 'utf8')) as JWK;
    kid = jwk.kid!;
    signingKey = (await importJWK(jwk, 'RS256')) as CryptoKey;
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  /** A token signed with the issuer's own key: only the named header fields and claims differ. */
  async function sign(claims: JWTPayload, header: { kid?: string } = { kid: 'own' }, key: CryptoKey = signingKey): Promise<string> {
    const protectedHeader = { alg: 'RS256', ...(header.kid === undefined ? {} : { kid: header.kid === 'own' ? kid : header.kid }) };
    return new SignJWT({ iss: ISSUER, sub: 'user-1', scope: 'tasks:read', iat: now() - 10, exp: now() + 600, ...claims }).setProtectedHeader(protectedHeader).sign(key);
  }

  async function rejection(token: string): Promise<string> {
    try {
      await issuer.verify(token);
    } catch (error) {
      expect(error).to.be.instanceOf(TokenRejected);
      return (error as Error).message;
    }
    throw new Error('the token was accepted');
  }

  it('accepts a well-formed token with aud, and one with client_id only (a Cognito access token)', async () => {
    expect((await issuer.verify(await sign({ aud: 'web' }))).scopes).to.deep.equal(['tasks:read']);
    const cognitoLike = await issuer.verify(await sign({ client_id: 'reporting', token_use: 'access' }));
    expect(cognitoLike.claims).to.include({ client_id: 'reporting', sub: 'user-1' });
  });

  it('accepts a minted token: Cognito-shaped, client_id and no aud', async () => {
    const { token } = await issuer.mint({ sub: 'user-2', scopes: ['tasks:write'], clientId: 'web' });
    const { claims } = await issuer.verify(token);
    expect(claims).to.include({ sub: 'user-2', client_id: 'web', token_use: 'access', username: 'user-2' });
    expect(claims).to.not.have.property('aud');
  });

  it('refuses a token without a kid, and one whose kid names no key of the JWKS', async () => {
    expect(await rejection(await sign({ aud: 'web' }, {}))).to.contain('no "kid"');
    expect(await rejection(await sign({ aud: 'web' }, { kid: 'another-key' }))).to.contain('names no key');
  });

  it('refuses a token signed by another key under the JWKS kid', async () => {
    const other = await generateKeyPair('RS256');
    expect(await rejection(await sign({ aud: 'web' }, { kid: 'own' }, other.privateKey))).to.contain('signature');
  });

  it('refuses a token without exp, and an expired one', async () => {
    expect(await rejection(await sign({ aud: 'web', exp: undefined }))).to.contain('"exp"');
    expect(await rejection(await sign({ aud: 'web', exp: now() - 60 }))).to.contain('expired');
  });

  it('refuses a token of another issuer, and one without iss', async () => {
    expect(await rejection(await sign({ aud: 'web', iss: 'https://cognito-idp.eu-west-1.amazonaws.com/eu-west-1_other' }))).to.contain('issuer');
    expect(await rejection(await sign({ aud: 'web', iss: undefined }))).to.contain('issuer');
  });

  it('refuses a token not valid yet (nbf) or issued in the future (iat)', async () => {
    expect(await rejection(await sign({ aud: 'web', nbf: now() + 600 }))).to.contain('"nbf"');
    expect(await rejection(await sign({ aud: 'web', iat: now() + 600 }))).to.contain('"iat"');
  });

  it('checks aud when present (client_id is then ignored), client_id only when aud is absent', async () => {
    expect(await rejection(await sign({ aud: 'someone-else', client_id: 'web' }))).to.contain('valid audience');
    expect(await issuer.verify(await sign({ aud: ['someone-else', 'web'] }))).to.have.property('scopes');
    expect(await rejection(await sign({ client_id: 'someone-else' }))).to.contain('valid audience');
    expect(await rejection(await sign({}))).to.contain('neither "aud" nor "client_id"');
  });
});

/**
 * A client sends the same token on every request, so a verified token is remembered until its `exp` rather than
 * checked again; the cache must never change an answer.
 */
describe('local issuer: verified tokens are remembered until they expire', () => {
  const ISSUER = 'http://127.0.0.1:3998';
  let dir: string;
  let issuer: LocalIssuer;

  beforeEach(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fw-issuer-cache-test-'));
    issuer = await LocalIssuer.open(dir, ISSUER, ['web']);
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('checks the signature of a token once, then answers the same claims from memory', async () => {
    const { token } = await issuer.mint({ sub: 'user-1', scopes: ['tasks:read'], clientId: 'web' });
    const first = await issuer.verify(token);
    first.claims.sub = 'changed-by-the-caller';
    first.scopes.push('tasks:admin');
    const second = await issuer.verify(token);
    expect(issuer.signatureChecks).to.equal(1);
    expect(second.claims.sub).to.equal('user-1');
    expect(second.scopes).to.deep.equal(['tasks:read']);
  });

  it('refuses a remembered token once it has expired', async () => {
    // exp is in whole seconds: a few of them leave the first verification time to finish on a loaded machine.
    const { token, expiresAt } = await issuer.mint({ sub: 'user-1', scopes: ['tasks:read'], clientId: 'web', expiresIn: 4 });
    await issuer.verify(token);
    expect(issuer.signatureChecks).to.equal(1);
    // Wait for the clock to pass exp; the remembered entry must not outlive it.
    while (Math.floor(Date.now() / 1000) < expiresAt) await new Promise((resolve) => setTimeout(resolve, 100));
    let message = '';
    await issuer.verify(token).catch((error: Error) => (message = error.message));
    expect(message).to.contain('expired');
  });

  it('refuses a tampered copy of a remembered token (payload or signature changed)', async () => {
    const { token } = await issuer.mint({ sub: 'user-1', scopes: ['tasks:read'], clientId: 'web' });
    await issuer.verify(token);
    const [header, payload, signature] = token.split('.') as [string, string, string];
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Record<string, unknown>;
    const forgedPayload = Buffer.from(JSON.stringify({ ...claims, scope: 'tasks:read tasks:admin' })).toString('base64url');
    const flipped = signature.slice(0, -2) + (signature.at(-2) === 'A' ? 'B' : 'A') + signature.at(-1);
    for (const tampered of [`${header}.${forgedPayload}.${signature}`, `${header}.${payload}.${flipped}`]) {
      let rejected: unknown;
      await issuer.verify(tampered).catch((error: unknown) => (rejected = error));
      expect(rejected, tampered).to.be.instanceOf(TokenRejected);
    }
  });
});
