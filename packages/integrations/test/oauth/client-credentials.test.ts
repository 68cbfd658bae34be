import { expect } from 'chai';
import { OAuth2Server } from 'oauth2-mock-server';
import { createClientCredentialsTokenSource, OAuthProviderError } from '../../src/index.js';

describe('client credentials', () => {
  let server: OAuth2Server;
  let tokenRequests: Record<string, string>[];
  before(async () => {
    server = new OAuth2Server();
    await server.issuer.keys.generate('RS256');
    await server.start(0, '127.0.0.1');
    server.service.on('beforeResponse', (_res: unknown, req: { body: Record<string, string> }) => tokenRequests.push(req.body));
  });
  after(async () => server.stop());
  beforeEach(() => {
    tokenRequests = [];
  });

  // Each test its own client id: the cache is per container, shared by sources of the same client.
  let n = 0;
  const source = (extra: { now?: () => number; defaultExpiresInSeconds?: number } = {}) =>
    createClientCredentialsTokenSource({ tokenEndpoint: `${server.issuer.url}/token`, clientId: `svc-${++n}`, clientSecret: 's3cret', scopes: ['reports:read'], ...extra });

  it('fetches one token for concurrent callers and serves it from the cache after', async () => {
    const tokens = source();
    const first = await Promise.all([tokens.getAccessToken(), tokens.getAccessToken(), tokens.getAccessToken()]);
    expect(new Set(first).size).to.equal(1);
    expect(await tokens.getAccessToken()).to.equal(first[0]);
    expect(tokenRequests).to.have.length(1);
    expect(tokenRequests[0]).to.include({ grant_type: 'client_credentials', scope: 'reports:read' });
  });

  it('replaces the token shortly before it expires, and shares the cache with another source of the same client', async () => {
    let now = Date.now();
    const options = { tokenEndpoint: `${server.issuer.url}/token`, clientId: 'svc-shared', clientSecret: 's3cret', now: () => now };
    const a = createClientCredentialsTokenSource(options);
    const b = createClientCredentialsTokenSource(options);
    const first = await a.getAccessToken();
    expect(await b.getAccessToken()).to.equal(first);
    expect(tokenRequests).to.have.length(1);
    now += 3600_000 - 59_000; // the mock's tokens live 3600 s; refreshed within the last minute
    await b.getAccessToken();
    expect(tokenRequests).to.have.length(2);
  });

  it('assumes the configured lifetime when the answer has no expires_in', async () => {
    const drop = (res: { body: Record<string, unknown> }) => delete res.body['expires_in'];
    server.service.once('beforeResponse', drop);
    let now = Date.now();
    const tokens = source({ now: () => now, defaultExpiresInSeconds: 120 });
    await tokens.getAccessToken();
    now += 30_000;
    await tokens.getAccessToken();
    expect(tokenRequests).to.have.length(1);
    now += 60_000; // 90 s of 120: inside the last minute
    await tokens.getAccessToken();
    expect(tokenRequests).to.have.length(2);
  });

  it('throws OAuthProviderError with the OAuth2 error code when the provider refuses', async () => {
    server.service.once('beforeResponse', (res: { statusCode: number; body: unknown }) => {
      res.statusCode = 401;
      res.body = { error: 'invalid_client', error_description: 'bad secret' };
    });
    try {
      await source().getAccessToken();
      expect.fail('expected a failure');
    } catch (error) {
      expect(error).to.be.instanceOf(OAuthProviderError).and.include({ error: 'invalid_client' });
    }
  });
});
