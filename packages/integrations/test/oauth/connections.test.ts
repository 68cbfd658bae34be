import type { PGlite } from '@electric-sql/pglite';
import { createLogger, type Logger } from '@framework/runtime';
import { expect } from 'chai';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { OAuth2Server } from 'oauth2-mock-server';
import {
  ConnectionBrokenError,
  createOAuthConnections,
  EnvelopeCipher,
  LocalKeyFileProvider,
  OAuthStateError,
  type BrokenConnectionEvent,
  type OAuthConnections,
  type OAuthConnectionsOptions,
} from '../../src/index.js';
import { startVaultDatabase } from '../helpers/pglite-queryable.js';

async function rejection(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    return error as Error;
  }
  expect.fail('expected a failure');
}

describe('OAuth2 connections (authorization code + PKCE, vault, refresh)', () => {
  let server: OAuth2Server;
  let vault: Awaited<ReturnType<typeof startVaultDatabase>>;
  let pg: PGlite;
  let keyDir: string;
  let cipher: EnvelopeCipher;
  let tokenRequests: Record<string, string>[];
  let issued: string[];
  let now: number;
  let events: BrokenConnectionEvent[];
  const silent: Logger = createLogger({ sink: () => undefined });

  before(async () => {
    server = new OAuth2Server();
    await server.issuer.keys.generate('RS256');
    await server.start(0, '127.0.0.1');
    server.service.on('beforeResponse', (res: { body: { access_token?: string } }, req: { body: Record<string, string> }) => {
      tokenRequests.push(req.body);
      if (res.body.access_token) issued.push(res.body.access_token);
    });
    vault = await startVaultDatabase();
    pg = vault.pg;
    keyDir = await mkdtemp(path.join(tmpdir(), 'fw-vault-'));
    cipher = new EnvelopeCipher(new LocalKeyFileProvider(path.join(keyDir, 'vault.key')));
  });
  after(async () => {
    await server.stop();
    await pg.close();
    await rm(keyDir, { recursive: true, force: true });
  });
  beforeEach(async () => {
    await vault.reset();
    tokenRequests = [];
    issued = [];
    events = [];
    now = Date.now();
  });

  const connections = (extra: Partial<OAuthConnectionsOptions> = {}): OAuthConnections =>
    createOAuthConnections({
      db: vault.db,
      cipher,
      logger: silent,
      now: () => now,
      brokenEvents: { send: async (event) => void events.push(event) },
      providers: {
        acme: {
          preset: { issuer: server.issuer.url!, authorizationEndpoint: `${server.issuer.url}/authorize`, tokenEndpoint: `${server.issuer.url}/token`, defaultScopes: ['files.read'] },
          // No '-': oauth4webapi form-encodes it in Basic auth (%2D) and the mock does not decode the id.
          clientId: 'appclient',
          clientSecret: 'app-secret',
          redirectUri: 'https://app.example.com/integrations/acme/callback',
        },
      },
      ...extra,
    });

  /** The user's browser: follows the connect URL to the provider, which redirects back with code and state. */
  async function authorize(url: string): Promise<string> {
    const res = await fetch(url, { redirect: 'manual' });
    expect(res.status).to.equal(302);
    return new URL(res.headers.get('location')!).search;
  }

  async function connect(c: OAuthConnections, userId = 'user-1') {
    const { url } = await c.startConnect({ provider: 'acme', userId });
    return c.completeConnect({ userId, query: await authorize(url) });
  }

  it('connects an account: PKCE S256 on the way out, verifier on the token request, tokens stored encrypted', async () => {
    const c = connections();
    const { url } = await c.startConnect({ provider: 'acme', userId: 'user-1' });
    const authorizeUrl = new URL(url);
    expect(authorizeUrl.searchParams.get('code_challenge_method')).to.equal('S256');
    expect(authorizeUrl.searchParams.get('scope')).to.equal('files.read');
    const connection = await c.completeConnect({ userId: 'user-1', query: await authorize(url) });
    expect(connection).to.include({ owner: 'user-1', provider: 'acme', status: 'active' });
    expect(tokenRequests[0]).to.include({ grant_type: 'authorization_code' });
    expect(tokenRequests[0]!['code_verifier']).to.match(/^[A-Za-z0-9_-]{43,128}$/);

    const { rows } = await pg.query<{ access_token: string; refresh_token: string }>('SELECT access_token, refresh_token FROM oauth_connections');
    expect(rows[0]!.access_token).to.match(/^v1\./).and.not.include(issued[0]!);
    expect(rows[0]!.refresh_token).to.match(/^v1\./);
    expect(await c.getAccessToken(connection.id)).to.equal(issued[0]);
    expect(await c.getAccessToken({ owner: 'user-1', provider: 'acme' })).to.equal(issued[0]);
    expect((await pg.query('SELECT * FROM oauth_pending_authorizations')).rows).to.have.length(0);
  });

  it('refuses a tampered state, a replayed callback, another user and an expired flow (400 OAUTH_STATE_INVALID)', async () => {
    const c = connections();
    const { url } = await c.startConnect({ provider: 'acme', userId: 'user-1' });
    const query = await authorize(url);
    const tampered = new URLSearchParams(query);
    tampered.set('state', tampered.get('state')!.slice(0, -2) + 'xx');
    const error = await rejection(c.completeConnect({ userId: 'user-1', query: tampered }));
    expect(error).to.be.instanceOf(OAuthStateError).and.include({ status: 400, code: 'OAUTH_STATE_INVALID' });

    await c.completeConnect({ userId: 'user-1', query });
    expect(await rejection(c.completeConnect({ userId: 'user-1', query }))).to.be.instanceOf(OAuthStateError).and.have.property('message').that.includes('already used');

    const other = await c.startConnect({ provider: 'acme', userId: 'user-1' });
    expect(await rejection(c.completeConnect({ userId: 'mallory', query: await authorize(other.url) }))).to.be.instanceOf(OAuthStateError).and.have.property('message').that.includes('another user');

    const late = await c.startConnect({ provider: 'acme', userId: 'user-1' });
    const lateQuery = await authorize(late.url);
    now += 11 * 60_000;
    expect(await rejection(c.completeConnect({ userId: 'user-1', query: lateQuery }))).to.be.instanceOf(OAuthStateError).and.have.property('message').that.includes('expired');
    expect(tokenRequests.filter((r) => r['grant_type'] === 'authorization_code')).to.have.length(1);
  });

  it('refreshes a token that expires soon (one refresh for concurrent callers), and the cron refreshes what is due', async () => {
    const c = connections();
    const connection = await connect(c);
    now += 3600_000 - 60_000; // within the 5-minute window
    const tokens = await Promise.all([c.getAccessToken(connection.id), c.getAccessToken(connection.id)]);
    expect(tokenRequests.filter((r) => r['grant_type'] === 'refresh_token')).to.have.length(1);
    expect(tokens[0]).to.equal(tokens[1]).and.equal(issued[1]);

    now += 3600_000 - 10 * 60_000; // due within the cron's 15-minute horizon
    expect(await c.refreshDue()).to.deep.equal({ refreshed: 1, broken: 0, failed: 0 });
    expect(await c.getAccessToken(connection.id)).to.equal(issued[2]);
    expect(await c.refreshDue()).to.deep.equal({ refreshed: 0, broken: 0, failed: 0 });
  });

  it('refreshes once across containers: the second waits for the tokens of the first (a rotated refresh token is never replayed)', async () => {
    const containerA = connections();
    const containerB = connections();
    const connection = await connect(containerA);
    now += 3600_000 - 60_000;
    const [a, b] = await Promise.all([containerA.getAccessToken(connection.id), containerB.getAccessToken(connection.id)]);
    expect(tokenRequests.filter((r) => r['grant_type'] === 'refresh_token')).to.have.length(1);
    expect(a).to.equal(b).and.equal(issued[1]);
  });

  it('uses the configured lifetime when the provider sends no expires_in', async () => {
    server.service.once('beforeResponse', (res: { body: Record<string, unknown> }) => delete res.body['expires_in']);
    const c = connections({ defaultExpiresInSeconds: 900 });
    const connection = await connect(c);
    expect(connection.expiresAt!.getTime()).to.equal(now + 900_000);
  });

  it('marks a connection broken when its refresh token is refused, and sends the event once', async () => {
    const c = connections();
    const connection = await connect(c);
    server.service.once('beforeResponse', (res: { statusCode: number; body: unknown }) => {
      res.statusCode = 400;
      res.body = { error: 'invalid_grant', error_description: 'refresh token revoked' };
    });
    now += 3600_000;
    expect(await c.refreshDue()).to.deep.equal({ refreshed: 0, broken: 1, failed: 0 });
    expect((await c.get(connection.id))!.status).to.equal('broken');
    expect(events).to.have.length(1);
    expect(events[0]).to.include({ type: 'oauth.connection.broken', connectionId: connection.id, owner: 'user-1', provider: 'acme', reason: 'invalid_grant' });
    expect(await rejection(c.getAccessToken(connection.id))).to.be.instanceOf(ConnectionBrokenError);
    expect(await c.refreshDue()).to.deep.equal({ refreshed: 0, broken: 0, failed: 0 });

    // Connecting again repairs it (same row, new tokens).
    const again = await connect(c);
    expect(again).to.include({ id: connection.id, status: 'active' });
  });
});
