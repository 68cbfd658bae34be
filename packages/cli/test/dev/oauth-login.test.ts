import * as fs from 'node:fs';
import * as path from 'node:path';
import { localAppClientId } from '@framework/core';
import { expect } from 'chai';
import { decodeJwt } from 'jose';
import * as oauth from 'oauth4webapi';
import { DevServer } from '../../src/dev/dev-server.js';
import { eventually } from './helpers.js';
import { ADMIN, CALLBACK_URL, loginProject, MEMBER, SIGNED_OUT_URL } from './login-project.js';

const insecure = { [oauth.allowInsecureRequests]: true } as const;

describe('the dev issuer\'s OAuth 2.0 / OIDC surface, with oauth4webapi as the client', function () {
  this.timeout(60_000);
  let dir: string;
  let server: DevServer;
  let as: oauth.AuthorizationServer;
  let printed = '';
  const client: oauth.Client = { client_id: localAppClientId('small', 'dev', 'web') };

  before(async () => {
    dir = loginProject();
    server = await DevServer.start({ rootDir: dir, port: 0, log: { info: () => undefined, warn: () => undefined, error: () => undefined }, print: (text) => (printed += text), activityLog: false });
    const issuer = new URL(server.url);
    as = await oauth.processDiscoveryResponse(issuer, await oauth.discoveryRequest(issuer, { ...insecure, algorithm: 'oidc' }));
  });
  after(async () => {
    await server?.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  /** The authorize request with a fresh PKCE pair, state and nonce; `params` replaces any of its parameters. */
  const authorizeUrl = async (params: Record<string, string> = {}) => {
    const verifier = oauth.generateRandomCodeVerifier();
    const state = oauth.generateRandomState();
    const nonce = oauth.generateRandomNonce();
    const url = new URL(as.authorization_endpoint!);
    const all = { client_id: client.client_id, redirect_uri: CALLBACK_URL, response_type: 'code', scope: 'openid email', state, nonce, code_challenge: await oauth.calculatePKCECodeChallenge(verifier), code_challenge_method: 'S256', ...params };
    for (const [name, value] of Object.entries(all)) url.searchParams.set(name, value);
    return { url, verifier, state, nonce };
  };

  /** Signs in on the login page as a browser would (the page, its cookie, the form post); the redirect it answers. */
  const signIn = async (url: URL, user: { username: string; password: string }) => {
    const page = await fetch(url, { redirect: 'manual' });
    expect(page.status).to.equal(200);
    const html = await page.text();
    const field = (name: string) => new RegExp(`name="${name}" value="([^"]*)"`).exec(html)![1]!;
    const cookie = page.headers.get('set-cookie')!.split(';')[0]!;
    const form = new URLSearchParams({ transaction: field('transaction'), csrf: field('csrf'), username: user.username, password: user.password });
    return fetch(new URL('/oauth2/login', server.url), { method: 'POST', redirect: 'manual', headers: { 'content-type': 'application/x-www-form-urlencoded', cookie }, body: form });
  };

  const codeFlow = async (user = MEMBER) => {
    const request = await authorizeUrl();
    const answer = await signIn(request.url, user);
    expect(answer.status).to.equal(302);
    const callback = new URL(answer.headers.get('location')!);
    expect(`${callback.origin}${callback.pathname}`).to.equal(CALLBACK_URL);
    return { ...request, params: oauth.validateAuthResponse(as, client, callback, request.state) };
  };

  it('PKCE code flow: a seeded member signs in; the access token has the member role\'s scopes and groups, the ID token Cognito\'s claims', async () => {
    const { params, verifier, nonce } = await codeFlow();
    const response = await oauth.authorizationCodeGrantRequest(as, client, oauth.None(), params, CALLBACK_URL, verifier, insecure);
    const tokens = await oauth.processAuthorizationCodeResponse(as, client, response, { expectedNonce: nonce, requireIdToken: true });
    expect(tokens.token_type).to.equal('bearer');
    expect(tokens.refresh_token).to.be.a('string');
    const access = decodeJwt(tokens.access_token);
    expect(access).to.deep.include({ 'token_use': 'access', 'scope': 'openid email small/items:read', 'cognito:groups': ['member'], 'username': MEMBER.username, 'client_id': client.client_id, 'iss': server.url });
    const id = oauth.getValidatedIdTokenClaims(tokens)!;
    expect(id).to.deep.include({ 'token_use': 'id', 'cognito:username': MEMBER.username, 'aud': client.client_id, 'email': 'mia@example.com', 'cognito:groups': ['member'], nonce });
    expect(id.sub).to.equal(access.sub).and.match(/^[0-9a-f-]{36}$/);

    // The member reads, and cannot reach the admin-only route: 403 naming the scope.
    const auth = { authorization: `Bearer ${tokens.access_token}` };
    expect((await fetch(`${server.url}/items`, { headers: auth })).status).to.equal(200);
    const remove = await fetch(`${server.url}/items`, { method: 'DELETE', headers: auth });
    expect(remove.status).to.equal(403);
    expect(remove.headers.get('www-authenticate')).to.contain('small/items:write');

    // userInfo answers for the same user.
    const info = await oauth.processUserInfoResponse(as, client, String(access.sub), await oauth.userInfoRequest(as, client, tokens.access_token, insecure));
    expect(info).to.deep.include({ username: MEMBER.username, email: 'mia@example.com' });
  });

  it('an admin gets the write scope through the same client, and DELETE /items answers 200', async () => {
    const { params, verifier, nonce } = await codeFlow(ADMIN);
    const tokens = await oauth.processAuthorizationCodeResponse(as, client, await oauth.authorizationCodeGrantRequest(as, client, oauth.None(), params, CALLBACK_URL, verifier, insecure), { expectedNonce: nonce });
    expect(decodeJwt(tokens.access_token).scope).to.equal('openid email small/items:read small/items:write');
    expect((await fetch(`${server.url}/items`, { method: 'DELETE', headers: { authorization: `Bearer ${tokens.access_token}` } })).status).to.equal(200);
  });

  it('a wrong code_verifier is invalid_grant, and the code cannot be tried again', async () => {
    const { params, verifier } = await codeFlow();
    const wrong = await oauth.authorizationCodeGrantRequest(as, client, oauth.None(), params, CALLBACK_URL, oauth.generateRandomCodeVerifier(), insecure);
    await expectOAuthError(oauth.processAuthorizationCodeResponse(as, client, wrong), 'invalid_grant', /code_verifier/);
    const again = await oauth.authorizationCodeGrantRequest(as, client, oauth.None(), params, CALLBACK_URL, verifier, insecure);
    await expectOAuthError(oauth.processAuthorizationCodeResponse(as, client, again), 'invalid_grant', /already used/);
  });

  it('a code is single use: the second exchange is invalid_grant', async () => {
    const { params, verifier, nonce } = await codeFlow();
    await oauth.processAuthorizationCodeResponse(as, client, await oauth.authorizationCodeGrantRequest(as, client, oauth.None(), params, CALLBACK_URL, verifier, insecure), { expectedNonce: nonce });
    const second = await oauth.authorizationCodeGrantRequest(as, client, oauth.None(), params, CALLBACK_URL, verifier, insecure);
    await expectOAuthError(oauth.processAuthorizationCodeResponse(as, client, second), 'invalid_grant', /already used/);
  });

  it('a redirect_uri other than the authorize request\'s is invalid_grant at the token endpoint', async () => {
    const { params, verifier } = await codeFlow();
    const response = await oauth.authorizationCodeGrantRequest(as, client, oauth.None(), params, 'http://localhost:5173/other', verifier, insecure);
    await expectOAuthError(oauth.processAuthorizationCodeResponse(as, client, response), 'invalid_grant', /redirect_uri/);
  });

  it('authorize refuses, without redirecting, a redirect_uri that is not one of the client\'s callbackUrls', async () => {
    const { url } = await authorizeUrl({ redirect_uri: 'https://attacker.example/callback' });
    const answer = await fetch(url, { redirect: 'manual' });
    expect(answer.status).to.equal(400);
    expect(await answer.text()).to.contain('is not one of app client &#34;web&#34;&#39;s callbackUrls');
  });

  it('authorize without PKCE (or with plain) redirects back with invalid_request and the state', async () => {
    for (const params of [{ code_challenge_method: 'plain' }, { code_challenge: '' }]) {
      const { url, state } = await authorizeUrl(params);
      if (params.code_challenge === '') url.searchParams.delete('code_challenge');
      const answer = await fetch(url, { redirect: 'manual' });
      expect(answer.status).to.equal(302);
      const back = new URL(answer.headers.get('location')!);
      expect(back.searchParams.get('error')).to.equal('invalid_request');
      expect(back.searchParams.get('error_description')).to.contain('PKCE');
      expect(back.searchParams.get('state')).to.equal(state);
    }
  });

  it('refresh_token: new tokens for the same user and scopes; an unknown refresh token is invalid_grant', async () => {
    const { params, verifier, nonce } = await codeFlow();
    const first = await oauth.processAuthorizationCodeResponse(as, client, await oauth.authorizationCodeGrantRequest(as, client, oauth.None(), params, CALLBACK_URL, verifier, insecure), { expectedNonce: nonce });
    const refreshed = await oauth.processRefreshTokenResponse(as, client, await oauth.refreshTokenGrantRequest(as, client, oauth.None(), first.refresh_token!, insecure));
    expect(decodeJwt(refreshed.access_token)).to.deep.include({ sub: decodeJwt(first.access_token).sub, scope: 'openid email small/items:read' });
    const unknown = await oauth.refreshTokenGrantRequest(as, client, oauth.None(), 'not-a-refresh-token', insecure);
    await expectOAuthError(oauth.processRefreshTokenResponse(as, client, unknown), 'invalid_grant', /refresh token/);
  });

  it('the token endpoint refuses an unknown client (invalid_client, 401) and an unsupported grant', async () => {
    const stranger = await fetch(as.token_endpoint!, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'grant_type=authorization_code&code=x&client_id=nobody' });
    expect(stranger.status).to.equal(401);
    expect(await stranger.json()).to.include({ error: 'invalid_client' });
    const password = await fetch(as.token_endpoint!, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: `grant_type=password&client_id=${client.client_id}` });
    expect(password.status).to.equal(400);
    expect(await password.json()).to.include({ error: 'unsupported_grant_type' });
  });

  it('client_credentials: the machine client gets its own token (sub = client id, its scopes); a scope it may not request is invalid_scope', async () => {
    const machine: oauth.Client = { client_id: localAppClientId('small', 'dev', 'reporting') };
    const tokens = await oauth.processClientCredentialsResponse(as, machine, await oauth.clientCredentialsGrantRequest(as, machine, oauth.None(), new URLSearchParams({ scope: 'items:read' }), insecure));
    expect(decodeJwt(tokens.access_token)).to.deep.include({ sub: machine.client_id, client_id: machine.client_id, scope: 'small/items:read', token_use: 'access' });
    expect((await fetch(`${server.url}/items`, { headers: { authorization: `Bearer ${tokens.access_token}` } })).status).to.equal(200);
    const tooMuch = await oauth.clientCredentialsGrantRequest(as, machine, oauth.None(), new URLSearchParams({ scope: 'items:write' }), insecure);
    await expectOAuthError(oauth.processClientCredentialsResponse(as, machine, tooMuch), 'invalid_scope', /may not request items:write/);
    const userClient = await oauth.clientCredentialsGrantRequest(as, client, oauth.None(), new URLSearchParams(), insecure);
    await expectOAuthError(oauth.processClientCredentialsResponse(as, client, userClient), 'unauthorized_client', /client_credentials/);
  });

  it('fw dev prints who can sign in: the login client\'s id and callback, the seeded users with their roles, never a password', async () => {
    // The table is printed once every route has loaded (after start resolves).
    await eventually(async () => (printed.includes('Sign in') ? true : undefined), 30_000, 'the start-up table');
    expect(printed).to.contain(`Sign in (login page at /oauth2/authorize, PKCE; discovery ${server.url}/.well-known/openid-configuration)`);
    expect(printed).to.match(new RegExp(`client web\\s+${client.client_id}\\s+${CALLBACK_URL}`));
    expect(printed).to.match(/user mia\s+member/).and.match(/user ada\s+admin/);
    expect(printed).to.not.contain(MEMBER.password).and.not.contain(ADMIN.password);
  });

  it('a wrong password shows the login page again with an error (401); no code is issued', async () => {
    const { url } = await authorizeUrl();
    const answer = await signIn(url, { username: MEMBER.username, password: 'not-the-password' });
    expect(answer.status).to.equal(401);
    expect(answer.headers.get('location')).to.equal(null);
    expect(await answer.text()).to.contain('Incorrect username or password.');
  });

  it('the login form posted without the CSRF cookie is refused (403)', async () => {
    const { url } = await authorizeUrl();
    const html = await (await fetch(url)).text();
    const field = (name: string) => new RegExp(`name="${name}" value="([^"]*)"`).exec(html)![1]!;
    const form = new URLSearchParams({ transaction: field('transaction'), csrf: field('csrf'), username: MEMBER.username, password: MEMBER.password });
    const answer = await fetch(new URL('/oauth2/login', server.url), { method: 'POST', redirect: 'manual', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: form });
    expect(answer.status).to.equal(403);
  });

  it('the login page is not sniffed nor framed, and logout redirects only to a logoutUrls entry', async () => {
    const { url } = await authorizeUrl();
    const page = await fetch(url);
    expect(page.headers.get('x-content-type-options')).to.equal('nosniff');
    expect(page.headers.get('content-security-policy')).to.contain("frame-ancestors 'none'");
    const logout = await fetch(`${server.url}/logout?client_id=${client.client_id}&logout_uri=${encodeURIComponent(SIGNED_OUT_URL)}`, { redirect: 'manual' });
    expect(logout.status).to.equal(302);
    expect(logout.headers.get('location')).to.equal(SIGNED_OUT_URL);
    const elsewhere = await fetch(`${server.url}/logout?client_id=${client.client_id}&logout_uri=${encodeURIComponent('https://attacker.example/')}`, { redirect: 'manual' });
    expect(elsewhere.status).to.equal(400);
  });

  it('the users file under .fw/ keeps scrypt hashes, never the passwords', () => {
    const text = fs.readFileSync(path.join(dir, '.fw', 'dev', 'auth', 'users.json'), 'utf8');
    expect(text).to.not.contain(MEMBER.password).and.not.contain(ADMIN.password);
    const users = (JSON.parse(text) as { users: Array<{ username: string; roles: string[]; passwordHash: string }> }).users;
    expect(users.map((u) => [u.username, u.roles])).to.deep.equal([[MEMBER.username, ['member']], [ADMIN.username, ['admin']]]);
    expect(users.every((u) => u.passwordHash.startsWith('scrypt$'))).to.equal(true);
  });
});

async function expectOAuthError(promise: Promise<unknown>, error: string, description: RegExp): Promise<void> {
  try {
    await promise;
  } catch (thrown) {
    expect(thrown).to.be.instanceOf(oauth.ResponseBodyError);
    expect((thrown as oauth.ResponseBodyError).error).to.equal(error);
    expect((thrown as oauth.ResponseBodyError).error_description).to.match(description);
    return;
  }
  expect.fail(`expected the OAuth error ${error}`);
}
