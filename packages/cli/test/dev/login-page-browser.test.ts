import * as fs from 'node:fs';
import { localAppClientId } from '@framework/core';
import { expect } from 'chai';
import { decodeJwt } from 'jose';
import * as oauth from 'oauth4webapi';
import { chromium, type Browser, type Page } from 'playwright-core';
import { DevServer } from '../../src/dev/dev-server.js';
import { findChromium } from './chromium.js';
import { openLoginInBrowser } from './login-browser.js';
import { CALLBACK_URL, loginProject, MEMBER } from './login-project.js';

const insecure = { [oauth.allowInsecureRequests]: true } as const;

describe('the dev issuer\'s login page in a real browser (Chromium via playwright-core)', function () {
  this.timeout(120_000);
  const executablePath = findChromium();
  let dir: string;
  let server: DevServer;
  let browser: Browser;
  let as: oauth.AuthorizationServer;
  const client: oauth.Client = { client_id: localAppClientId('small', 'dev', 'web') };

  before(async function () {
    if (!executablePath) {
      console.log('    skipped: no Chromium on PATH (chromium, chromium-browser or google-chrome); .ci/prepare-machine installs Debian\'s chromium');
      this.skip();
    }
    dir = loginProject();
    server = await DevServer.start({ rootDir: dir, port: 0, log: { info: () => undefined, warn: () => undefined, error: () => undefined }, print: () => undefined, activityLog: false });
    const issuer = new URL(server.url);
    as = await oauth.processDiscoveryResponse(issuer, await oauth.discoveryRequest(issuer, { ...insecure, algorithm: 'oidc' }));
    browser = await chromium.launch({ executablePath, args: ['--no-sandbox'] });
  });
  after(async () => {
    await browser?.close();
    await server?.stop();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  const openLogin = () => openLoginInBrowser(browser, as, client);

  const submit = async (page: Page, username: string, password: string) => {
    await page.getByLabel('Username').fill(username);
    await page.getByLabel('Password').fill(password);
    await page.getByRole('button', { name: 'Sign in' }).click();
  };

  it('a seeded member signs in, lands on the callback with a code, exchanges it; GET /items 200, the admin-only DELETE /items 403 naming the scope', async () => {
    const { page, verifier, state } = await openLogin();
    await submit(page, MEMBER.username, MEMBER.password);
    await page.waitForURL(`${CALLBACK_URL}**`);
    const callback = new URL(page.url());
    const params = oauth.validateAuthResponse(as, client, callback, state);
    expect(params.get('code')).to.be.a('string');
    await page.context().close();

    const tokens = await oauth.processAuthorizationCodeResponse(as, client, await oauth.authorizationCodeGrantRequest(as, client, oauth.None(), params, CALLBACK_URL, verifier, insecure));
    expect(decodeJwt(tokens.access_token)).to.deep.include({ 'scope': 'openid small/items:read', 'cognito:groups': ['member'] });
    const auth = { authorization: `Bearer ${tokens.access_token}` };
    expect((await fetch(`${server.url}/items`, { headers: auth })).status).to.equal(200);
    const remove = await fetch(`${server.url}/items`, { method: 'DELETE', headers: auth });
    expect(remove.status).to.equal(403);
    expect(remove.headers.get('www-authenticate')).to.contain('scope="small/items:write"');
  });

  it('lists the federated providers as not available offline, says MFA is not asked, and signs the member in without it', async () => {
    const { page } = await openLogin();
    const providers = page.getByRole('region', { name: 'Other sign-in options' });
    expect(await providers.getByRole('button').allTextContents()).to.deep.equal(['Continue with google-oidc (OIDC)', 'Continue with okta (SAML)']);
    for (const button of await providers.getByRole('button').all()) expect(await button.isDisabled()).to.equal(true);
    expect(await providers.textContent()).to.contain('Not available offline');
    expect(await page.locator('#mfa-note').textContent()).to.equal('Multi-factor authentication (required when deployed) is not asked on the local dev issuer.');
    // MFA is required deployed, yet the local sign-in goes straight to the callback.
    await submit(page, MEMBER.username, MEMBER.password);
    await page.waitForURL(`${CALLBACK_URL}**`);
    await page.context().close();
  });

  it('a wrong password shows an error on the page and stays there', async () => {
    const { page } = await openLogin();
    await submit(page, MEMBER.username, 'not-the-password');
    expect((await page.getByRole('alert').textContent())?.trim()).to.equal('Incorrect username or password.');
    expect(page.url()).to.not.contain(CALLBACK_URL);
    expect(await page.getByLabel('Username').inputValue()).to.equal(MEMBER.username);
    await page.context().close();
  });
});
