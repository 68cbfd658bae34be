import * as fs from 'node:fs';
import { localAppClientId } from '@framework/core';
import { expect } from 'chai';
import { decodeJwt } from 'jose';
import * as oauth from 'oauth4webapi';
import { chromium, type Browser } from 'playwright-core';
import { findChromium } from './chromium.js';
import { openLoginInBrowser } from './login-browser.js';
import { copyExample, json, startDev, type RunningDev } from './helpers.js';

/** The example's web client callback (config/security.ts); never served: the page's request to it is intercepted. */
const CALLBACK_URL = 'http://localhost:5173/callback';
/** The example's seeded users (config/dev.ts). */
const MIA = { username: 'mia', password: 'dev-member-password' };
const ADA = { username: 'ada', password: 'dev-admin-password' };

const insecure = { [oauth.allowInsecureRequests]: true } as const;

describe('the example app (examples/tasks-api) on fw dev: a seeded user signs in on the login page in Chromium', function () {
  this.timeout(180_000);
  const executablePath = findChromium();
  let dir: string;
  let dev: RunningDev;
  let browser: Browser;
  let as: oauth.AuthorizationServer;
  const client: oauth.Client = { client_id: localAppClientId('tasks-api', 'dev', 'web') };

  before(async function () {
    if (!executablePath) {
      console.log('    skipped: no Chromium on PATH (chromium, chromium-browser or google-chrome); .ci/prepare-machine installs Debian\'s chromium');
      this.skip();
    }
    dir = copyExample();
    dev = await startDev(dir, ['--engine', 'databases=embedded']);
    const issuer = new URL(dev.url);
    as = await oauth.processDiscoveryResponse(issuer, await oauth.discoveryRequest(issuer, { ...insecure, algorithm: 'oidc' }));
    browser = await chromium.launch({ executablePath, args: ['--no-sandbox'] });
  });
  after(async () => {
    await browser?.close();
    await dev?.stop();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  /** Authorization code with PKCE, driven through the login page: the access token the user gets. */
  const signIn = async (user: { username: string; password: string }): Promise<string> => {
    const { page, verifier, state } = await openLoginInBrowser(browser, as, client);
    try {
      await page.getByLabel('Username').fill(user.username);
      await page.getByLabel('Password').fill(user.password);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.waitForURL(`${CALLBACK_URL}**`);
      const params = oauth.validateAuthResponse(as, client, new URL(page.url()), state);
      const tokens = await oauth.processAuthorizationCodeResponse(as, client, await oauth.authorizationCodeGrantRequest(as, client, oauth.None(), params, CALLBACK_URL, verifier, insecure));
      return tokens.access_token;
    } finally {
      await page.context().close();
    }
  };

  /** A task of someone else, made with a token of fw dev's issuer (any subject). */
  const someonesTask = async (): Promise<string> => {
    const minted = await json(await fetch(`${dev.url}/_dev/token`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ scopes: ['tasks:write'], sub: 'someone-else', tenant: 'acme' }) }));
    const created = await fetch(`${dev.url}/tasks`, { method: 'POST', headers: { 'authorization': `Bearer ${minted.access_token}`, 'content-type': 'application/json' }, body: JSON.stringify({ title: 'To be removed by an admin' }) });
    expect(created.status).to.equal(201);
    return (await json(created)).id as string;
  };

  it('the member (mia) may GET /tasks but not reach the admin-only DELETE /tasks/{id}: 403 naming tasks:admin', async () => {
    const accessToken = await signIn(MIA);
    expect(decodeJwt(accessToken)).to.deep.include({ 'scope': 'openid tasks-api/tasks:read', 'cognito:groups': ['member'] });
    const auth = { authorization: `Bearer ${accessToken}` };

    const list = await fetch(`${dev.url}/tasks`, { headers: auth });
    expect(list.status).to.equal(200);
    expect(await json(list)).to.deep.equal({ tasks: [] });

    const id = await someonesTask();
    const remove = await fetch(`${dev.url}/tasks/${id}`, { method: 'DELETE', headers: auth });
    expect(remove.status).to.equal(403);
    // The HTTP API's JWT authorizer refuses it before the function runs: its body, and the scope in the header.
    expect(remove.headers.get('www-authenticate')).to.equal('Bearer error="insufficient_scope", scope="tasks-api/tasks:admin"');
    expect(await json(remove)).to.deep.equal({ message: 'Forbidden' });
  });

  it('the admin (ada) deletes any user\'s task with DELETE /tasks/{id}: 204, then 404', async () => {
    const accessToken = await signIn(ADA);
    const claims = decodeJwt(accessToken);
    expect(String(claims.scope).split(' ')).to.have.members(['openid', 'tasks-api/tasks:read', 'tasks-api/tasks:write', 'tasks-api/tasks:admin']);
    expect(claims['cognito:groups']).to.deep.equal(['admin']);
    const auth = { authorization: `Bearer ${accessToken}` };
    expect((await fetch(`${dev.url}/tasks`, { headers: auth })).status).to.equal(200);

    const id = await someonesTask();
    expect((await fetch(`${dev.url}/tasks/${id}`, { method: 'DELETE', headers: auth })).status).to.equal(204);
    expect((await fetch(`${dev.url}/tasks/${id}`, { method: 'DELETE', headers: auth })).status).to.equal(404);
  });
});
