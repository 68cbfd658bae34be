import * as fs from 'node:fs';
import { createAuthService, DEV_AUTH_TOKEN_HEADER } from '@framework/auth';
import { DEV_PATHS, ENV, localAppClientId } from '@framework/core';
import { expect } from 'chai';
import { decodeJwt } from 'jose';
import * as oauth from 'oauth4webapi';
import { runAuth } from '../../src/commands/auth.js';
import { DevServer } from '../../src/dev/dev-server.js';
import { ADMIN_ROUTE, CALLBACK_URL, loginProject } from './login-project.js';

const insecure = { [oauth.allowInsecureRequests]: true } as const;

const MACHINE_ROUTE = `import '@framework/auth';
import { handler } from '@framework/runtime';
export const main = handler(async (_body, _ctx, service) => {
  const [a, b] = await Promise.all([service.auth.machineToken('reporting'), service.auth.machineToken('reporting')]);
  return { a, b, c: await service.auth.machineToken('reporting') };
});
`;

describe('service.auth under fw dev: the dev issuer\'s user store and token endpoint', function () {
  this.timeout(90_000);
  let dir: string;
  let server: DevServer;
  let as: oauth.AuthorizationServer;
  let logged = '';
  const client: oauth.Client = { client_id: localAppClientId('small', 'dev', 'web') };

  before(async () => {
    dir = loginProject();
    fs.mkdirSync(`${dir}/src/routes/auth-admin`, { recursive: true });
    fs.writeFileSync(`${dir}/src/routes/auth-admin/post.ts`, ADMIN_ROUTE);
    fs.mkdirSync(`${dir}/src/routes/machine-token`, { recursive: true });
    fs.writeFileSync(`${dir}/src/routes/machine-token/get.ts`, MACHINE_ROUTE);
    server = await DevServer.start({ rootDir: dir, port: 0, log: { info: (m: string) => (logged += `${m}\n`), warn: () => undefined, error: (m: string) => (logged += `${m}\n`) }, print: () => undefined, activityLog: false });
    const issuer = new URL(server.url);
    as = await oauth.processDiscoveryResponse(issuer, await oauth.discoveryRequest(issuer, { ...insecure, algorithm: 'oidc' }));
  });
  after(async () => {
    await server?.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const call = async (action: string, ...args: unknown[]) => {
    const answer = await fetch(`${server.url}/auth-admin`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ action, args }) });
    expect(answer.status, await answer.clone().text()).to.equal(201);
    return (await answer.json()) as { result?: any; error?: { name: string; code: string; message: string } };
  };

  /** Signs in on the login page (as a browser: page, cookie, form post); the tokens, or the login page's status. */
  const signIn = async (username: string, password: string) => {
    const verifier = oauth.generateRandomCodeVerifier();
    const url = new URL(as.authorization_endpoint!);
    for (const [name, value] of Object.entries({ client_id: client.client_id, redirect_uri: CALLBACK_URL, response_type: 'code', scope: 'openid', state: 's', code_challenge: await oauth.calculatePKCECodeChallenge(verifier), code_challenge_method: 'S256' })) url.searchParams.set(name, value);
    const page = await fetch(url, { redirect: 'manual' });
    const html = await page.text();
    const field = (name: string) => new RegExp(`name="${name}" value="([^"]*)"`).exec(html)![1]!;
    const form = new URLSearchParams({ transaction: field('transaction'), csrf: field('csrf'), username, password });
    const answer = await fetch(new URL('/oauth2/login', server.url), { method: 'POST', redirect: 'manual', headers: { 'content-type': 'application/x-www-form-urlencoded', 'cookie': page.headers.get('set-cookie')!.split(';')[0]! }, body: form });
    if (answer.status !== 302) return { status: answer.status };
    const params = oauth.validateAuthResponse(as, client, new URL(answer.headers.get('location')!), 's');
    const tokens = await oauth.processAuthorizationCodeResponse(as, client, await oauth.authorizationCodeGrantRequest(as, client, oauth.None(), params, CALLBACK_URL, verifier, insecure));
    return { status: 302, tokens };
  };

  it('a user a handler creates signs in on the login page; the token carries the role\'s scopes, and setRoles changes them', async () => {
    const created = await call('createUser', { username: 'newbie', email: 'newbie@example.com', roles: ['admin'], temporaryPassword: 'Temp-pass-123' });
    expect(created.result).to.deep.include({ username: 'newbie', email: 'newbie@example.com', roles: ['admin'], enabled: true, status: 'FORCE_CHANGE_PASSWORD' });
    const first = await signIn('newbie', 'Temp-pass-123');
    expect(first.status).to.equal(302);
    const access = decodeJwt(first.tokens!.access_token);
    expect(access).to.deep.include({ 'sub': created.result.sub, 'username': 'newbie', 'cognito:groups': ['admin'], 'scope': 'openid small/items:read small/items:write' });
    expect((await fetch(`${server.url}/items`, { method: 'DELETE', headers: { authorization: `Bearer ${first.tokens!.access_token}` } })).status).to.equal(200);

    await call('setRoles', 'newbie', ['member']);
    expect((await call('getUser', 'newbie')).result.roles).to.deep.equal(['member']);
    const second = await signIn('newbie', 'Temp-pass-123');
    expect(decodeJwt(second.tokens!.access_token).scope).to.equal('openid small/items:read');
  });

  it('signOutEverywhere revokes the user\'s refresh tokens; a disabled user cannot sign in; a deleted one is gone', async () => {
    await call('createUser', { username: 'leaver', roles: ['member'], temporaryPassword: 'Temp-pass-123' });
    const { tokens } = await signIn('leaver', 'Temp-pass-123');
    const refreshed = await oauth.processRefreshTokenResponse(as, client, await oauth.refreshTokenGrantRequest(as, client, oauth.None(), tokens!.refresh_token!, insecure));
    expect(refreshed.access_token).to.be.a('string');
    await call('signOutEverywhere', 'leaver');
    const revoked = await oauth.refreshTokenGrantRequest(as, client, oauth.None(), tokens!.refresh_token!, insecure);
    expect(revoked.status).to.equal(400);
    expect(await revoked.json()).to.deep.include({ error: 'invalid_grant' });
    // Signing in again after the sign-out gives a refresh token that works.
    const again = await signIn('leaver', 'Temp-pass-123');
    expect((await oauth.refreshTokenGrantRequest(as, client, oauth.None(), again.tokens!.refresh_token!, insecure)).status).to.equal(200);

    await call('disableUser', 'leaver');
    expect((await signIn('leaver', 'Temp-pass-123')).status).to.equal(401);
    expect((await oauth.refreshTokenGrantRequest(as, client, oauth.None(), again.tokens!.refresh_token!, insecure)).status).to.equal(400);
    await call('enableUser', 'leaver');
    expect((await signIn('leaver', 'Temp-pass-123')).status).to.equal(302);
    await call('deleteUser', 'leaver');
    expect((await call('getUser', 'leaver')).result).to.equal(null);
    expect((await call('deleteUser', 'leaver')).error).to.include({ name: 'UserNotFoundError', code: 'FW_ERR_AUTH_USER_NOT_FOUND' });
  });

  it('an undeclared role, a taken username and bad input come back to the handler as the deployed error classes', async () => {
    const unknownRole = (await call('createUser', { username: 'x1', roles: ['owner'], temporaryPassword: 'Temp-pass-123' })).error!;
    expect(unknownRole).to.include({ name: 'UnknownRoleError', code: 'FW_ERR_AUTH_UNKNOWN_ROLE' });
    expect(unknownRole.message).to.contain('declared roles: admin, member');
    expect((await call('createUser', { username: 'mia', temporaryPassword: 'Temp-pass-123' })).error).to.include({ name: 'UserExistsError', code: 'FW_ERR_AUTH_USER_EXISTS' });
    expect((await call('listUsers', { limit: 100 })).error).to.include({ name: 'InvalidUserInputError', code: 'FW_ERR_AUTH_INVALID_INPUT' });
    expect((await call('listUsers', { cursor: 'garbage' })).error).to.include({ code: 'FW_ERR_AUTH_INVALID_INPUT' });
  });

  it('a user a handler creates in a tenant signs in with the tenant in their access and ID tokens (custom:tenant_id)', async () => {
    const created = await call('createUser', { username: 'tenant-member@example.com', invite: true, roles: ['member'], tenant: 'acme' });
    expect(created.result).to.deep.include({ username: 'tenant-member@example.com', tenant: 'acme' });
    expect((await call('getUser', 'tenant-member@example.com')).result).to.deep.include({ tenant: 'acme' });
    const password = /invited tenant-member@example\.com <tenant-member@example\.com> to tenant acme: .* temporary password is (\S+)/.exec(logged)?.[1];
    const { tokens } = await signIn('tenant-member@example.com', password!);
    expect(decodeJwt(tokens!.access_token)).to.deep.include({ 'custom:tenant_id': 'acme' });
    expect(decodeJwt(tokens!.id_token!)).to.deep.include({ 'custom:tenant_id': 'acme' });
    // A bad tenant id is the deployed error class, and no user is made
    expect((await call('createUser', { username: 'bad-tenant@example.com', invite: true, tenant: 'a b' })).error).to.include({ name: 'InvalidUserInputError', code: 'FW_ERR_AUTH_INVALID_INPUT' });
    expect((await call('getUser', 'bad-tenant@example.com')).result).to.equal(null);
  });

  it('setTenant moves a user who signed up alone into the workspace they created: their next refresh carries it', async () => {
    await call('createUser', { username: 'founder@example.com', roles: ['member'], temporaryPassword: 'Temp-pass-123' });
    const { tokens } = await signIn('founder@example.com', 'Temp-pass-123');
    expect(decodeJwt(tokens!.access_token)).not.to.have.property('custom:tenant_id');
    const refresh = async () => oauth.processRefreshTokenResponse(as, client, await oauth.refreshTokenGrantRequest(as, client, oauth.None(), tokens!.refresh_token!, insecure));

    expect((await call('setTenant', 'founder@example.com', 'initech')).error).to.equal(undefined);
    expect((await call('getUser', 'founder@example.com')).result).to.deep.include({ tenant: 'initech' });
    const moved = await refresh();
    expect(decodeJwt(moved.access_token)).to.deep.include({ 'custom:tenant_id': 'initech' });
    expect(decodeJwt(moved.id_token!)).to.deep.include({ 'custom:tenant_id': 'initech' });

    // Out of any tenant (undefined, null on the wire): the next token has no tenant claim at all
    expect((await call('setTenant', 'founder@example.com', null)).error).to.equal(undefined);
    expect((await call('getUser', 'founder@example.com')).result).not.to.have.property('tenant');
    expect(decodeJwt((await refresh()).access_token)).not.to.have.property('custom:tenant_id');

    expect((await call('setTenant', 'founder@example.com', 'a/b')).error).to.include({ name: 'InvalidUserInputError', code: 'FW_ERR_AUTH_INVALID_INPUT' });
    expect((await call('setTenant', 'nobody@example.com', 'acme')).error).to.include({ name: 'UserNotFoundError', code: 'FW_ERR_AUTH_USER_NOT_FOUND' });
  });

  it('an invitation prints the generated temporary password, which signs in', async () => {
    await call('createUser', { username: 'invitee@example.com', invite: true, roles: ['member'] });
    const password = /invited invitee@example\.com <invitee@example\.com>: .* temporary password is (\S+)/.exec(logged)?.[1];
    expect(password).to.be.a('string');
    expect((await signIn('invitee@example.com', password!)).status).to.equal(302);
  });

  it('listUsers pages with an opaque cursor through every user', async () => {
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const page = (await call('listUsers', { limit: 1, ...(cursor ? { cursor } : {}) })).result as { users: { username: string }[]; nextCursor?: string };
      expect(page.users).to.have.length(1);
      seen.push(page.users[0]!.username);
      cursor = page.nextCursor;
    } while (cursor);
    expect(seen).to.include.members(['mia', 'ada', 'newbie']);
    expect(new Set(seen).size).to.equal(seen.length);
  });

  it('fw auth users, run beside fw dev, changes the same store: the user it creates signs in at once', async () => {
    await runAuth(['users', 'create', 'from-cli', '--roles', 'member', '--password', 'Temp-pass-123'], { cwd: dir, out: () => undefined });
    const { status, tokens } = await signIn('from-cli', 'Temp-pass-123');
    expect(status).to.equal(302);
    expect(decodeJwt(tokens!.access_token).scope).to.equal('openid small/items:read');
    expect((await call('getUser', 'from-cli')).result).to.deep.include({ roles: ['member'] });
  });

  it('the user admin endpoint answers only a caller with this run\'s secret', async () => {
    const answer = await fetch(`${server.url}${DEV_PATHS.authAdmin}`, { method: 'POST', headers: { 'content-type': 'application/json', [DEV_AUTH_TOKEN_HEADER]: 'guess' }, body: JSON.stringify({ action: 'listUsers', args: [] }) });
    expect(answer.status).to.equal(401);
    expect(fs.readFileSync(`${dir}/.fw/dev/state.json`, 'utf8')).not.to.contain(ENV.devAuthToken);
  });

  it('machineToken in a handler: concurrent callers share one token, the next call gets it from the cache', async () => {
    const { a, b, c } = (await (await fetch(`${server.url}/machine-token`)).json()) as { a: string; b: string; c: string };
    expect(a).to.equal(b).and.equal(c);
    expect(decodeJwt(a)).to.deep.include({ client_id: localAppClientId('small', 'dev', 'reporting'), scope: 'small/items:read' });
  });

  it('machineToken against the dev issuer: one request per token, renewed early (a minute before expiry), unknown clients refused', async () => {
    let now = Date.now();
    let requests = 0;
    const counting = ((...args: Parameters<typeof fetch>) => {
      requests++;
      return fetch(...args);
    }) as typeof fetch;
    const env = { [ENV.devEndpoint]: server.url, [ENV.authIssuer]: server.url, [ENV.authUserPoolId]: 'local', [ENV.project]: 'small', [ENV.stage]: 'dev', [ENV.authResourceServer]: 'small', [ENV.authAudience]: ['web', 'reporting'].map((c) => localAppClientId('small', 'dev', c)).join(',') };
    const auth = createAuthService({ env, machineTokens: { now: () => now, fetch: counting } });
    const first = await auth.machineToken('reporting', ['items:read']);
    expect(await auth.machineToken('reporting', ['items:read'])).to.equal(first);
    expect(requests).to.equal(1);
    // The dev issuer's tokens live an hour: 58 minutes on, still cached; past 59, renewed.
    now += 58 * 60_000;
    expect(await auth.machineToken('reporting', ['items:read'])).to.equal(first);
    now += 90_000;
    const renewed = await auth.machineToken('reporting', ['items:read']);
    expect(renewed).not.to.equal(first);
    expect(requests).to.equal(2);
    expect((await auth.machineToken('nope').catch((e: unknown) => e)) as Error).to.have.property('code', 'FW_ERR_AUTH_UNKNOWN_CLIENT');
    expect((await auth.machineToken('web').catch((e: unknown) => e)) as Error).to.have.property('code', 'FW_ERR_AUTH_UNKNOWN_CLIENT');
  });
});
