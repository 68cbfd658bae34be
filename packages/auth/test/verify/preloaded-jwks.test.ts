import { expect } from 'chai';
import { SimpleJwksCache } from 'aws-jwt-verify/jwk';
import { AccessTokenVerifier } from '../../src/index.js';
import { HttpFetcher } from '../../src/verify/http-fetcher.js';
import { JwksServer, accessToken, signingKey, type SigningKey } from '../helpers/token-issuer.js';

describe('a JWKS preloaded at deploy (FW_AUTH_JWKS): no fetch on a cold start, a fetch for a key it lacks', () => {
  const pool = 'eu-west-1_Preloaded';
  const issuer = `https://cognito-idp.eu-west-1.amazonaws.com/${pool}`;
  let key: SigningKey;
  let rotated: SigningKey;
  let server: JwksServer;
  /** Cognito's JWKS URL answered by the local server (which counts the fetches): the one part of AWS replaced. */
  let jwksCache: () => SimpleJwksCache;
  /** The variables infra gives a function that verifies tokens, as a fresh container reads them. */
  const deployed = (jwks: string | undefined) => ({ FW_AUTH_USER_POOL_ID: pool, FW_AUTH_AUDIENCE: 'client-web', ...(jwks === undefined ? {} : { FW_AUTH_JWKS: jwks }) });

  before(async () => {
    key = await signingKey('pool-key');
    rotated = await signingKey('pool-key-2');
    // The pool publishes both keys now; the JWKS preloaded at deploy had only the first.
    server = await JwksServer.start({ [`/${pool}/.well-known/jwks.json`]: [key.publicJwk, rotated.publicJwk] });
    const http = new HttpFetcher();
    jwksCache = () => new SimpleJwksCache({ fetcher: { fetch: (uri: string) => http.fetch(uri.replace('https://cognito-idp.eu-west-1.amazonaws.com', server.url)) } });
  });
  after(() => server.stop());
  beforeEach(() => {
    server.requests = 0;
  });

  it('verifies the first tokens of a cold start with no network call, and fetches once for a key it lacks (rotation)', async () => {
    const verifier = AccessTokenVerifier.fromEnvironment(deployed(JSON.stringify({ keys: [key.publicJwk] })), { jwksCache: jwksCache() });
    for (let i = 0; i < 2; i++) expect((await verifier.verify(await accessToken(key, { iss: issuer, client_id: 'client-web' }))).issuer).to.equal(issuer);
    expect(server.requests).to.equal(0);
    // The pool rotated its keys after the deploy: a token of the new key fetches the JWKS, once.
    for (let i = 0; i < 2; i++) expect((await verifier.verify(await accessToken(rotated, { iss: issuer, client_id: 'client-web' }))).issuer).to.equal(issuer);
    expect(server.requests).to.equal(1);
  });

  it('ignores a value that is not a JWKS (with a warning) and fetches instead of failing', async () => {
    const warnings: string[] = [];
    const warn = console.warn;
    console.warn = (message: string) => warnings.push(message);
    try {
      for (const value of ['not json', '{"keys":"none"}']) {
        const verifier = AccessTokenVerifier.fromEnvironment(deployed(value), { jwksCache: jwksCache() });
        await verifier.verify(await accessToken(key, { iss: issuer, client_id: 'client-web' }));
      }
    } finally {
      console.warn = warn;
    }
    expect(server.requests).to.equal(2);
    expect(warnings).to.have.length(2);
    expect(warnings[0]).to.contain('FW_AUTH_JWKS is not a JWKS');
  });
});
