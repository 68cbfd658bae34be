import * as fs from 'node:fs';
import { localAppClientId } from '@framework/core';
import { expect } from 'chai';
import { decodeJwt } from 'jose';
import * as oauth from 'oauth4webapi';
import { chromium, type Browser } from 'playwright-core';
import { DevServer } from '../../src/dev/dev-server.js';
import { findChromium } from './chromium.js';
import { openLoginInBrowser } from './login-browser.js';
import { CALLBACK_URL, signUpProject, verificationCode } from './login-project.js';

const insecure = { [oauth.allowInsecureRequests]: true } as const;

describe('self sign-up and password reset on the dev issuer\'s login page in a real browser (Chromium via playwright-core)', function () {
  this.timeout(120_000);
  const executablePath = findChromium();
  let dir: string;
  let server: DevServer;
  let browser: Browser;
  let as: oauth.AuthorizationServer;
  const lines: string[] = [];
  const client: oauth.Client = { client_id: localAppClientId('small', 'dev', 'web') };

  before(async function () {
    if (!executablePath) {
      console.log('    skipped: no Chromium on PATH (chromium, chromium-browser or google-chrome); .ci/prepare-machine installs Debian\'s chromium');
      this.skip();
    }
    dir = signUpProject();
    server = await DevServer.start({ rootDir: dir, port: 0, log: { info: (line: string) => lines.push(line), warn: () => undefined, error: () => undefined }, print: () => undefined, activityLog: false });
    const issuer = new URL(server.url);
    as = await oauth.processDiscoveryResponse(issuer, await oauth.discoveryRequest(issuer, { ...insecure, algorithm: 'oidc' }));
    browser = await chromium.launch({ executablePath, args: ['--no-sandbox'] });
  });
  after(async () => {
    await browser?.close();
    await server?.stop();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('a new user signs up with a weak password (the page says why), then a good one, types the emailed code and lands on the callback signed in', async () => {
    const { page, verifier, state } = await openLoginInBrowser(browser, as, client);

    const signUp = page.getByRole('region', { name: 'New here? Sign up' });
    await signUp.getByLabel('Email').fill('ines@example.test');
    await signUp.getByLabel('Password').fill('nosymbols12345A');
    await signUp.getByRole('button', { name: 'Sign up' }).click();
    expect((await page.locator('#sign-up-error').textContent())?.trim()).to.equal('Password did not conform with policy: Password must have symbol characters');
    // The address stays filled in; the password does not.
    expect(await page.getByRole('region', { name: 'New here? Sign up' }).getByLabel('Email').inputValue()).to.equal('ines@example.test');

    await page.getByRole('region', { name: 'New here? Sign up' }).getByLabel('Password').fill('With-symbols-123');
    await page.getByRole('button', { name: 'Sign up' }).click();
    await page.getByRole('heading', { name: 'Confirm your account' }).waitFor();
    expect(await page.locator('#confirm-email').textContent()).to.equal('ines@example.test');
    const code = verificationCode(lines, 'ines@example.test');
    expect(code).to.match(/^\d{6}$/);
    await page.getByLabel('Verification code').fill(code!);
    await page.getByRole('button', { name: 'Confirm account' }).click();
    await page.waitForURL(`${CALLBACK_URL}**`);
    const params = oauth.validateAuthResponse(as, client, new URL(page.url()), state);
    await page.context().close();

    const tokens = await oauth.processAuthorizationCodeResponse(as, client, await oauth.authorizationCodeGrantRequest(as, client, oauth.None(), params, CALLBACK_URL, verifier, insecure));
    expect(decodeJwt(tokens.access_token)).to.deep.include({ username: 'ines@example.test', scope: 'openid small/items:read' });
    expect((await fetch(`${server.url}/items`, { headers: { authorization: `Bearer ${tokens.access_token}` } })).status).to.equal(200);
  });

  it('the user forgets the password: "Forgot your password?", the emailed code and a new password, then signs in with it', async () => {
    // ines: the user the previous test signed up.
    const { page } = await openLoginInBrowser(browser, as, client);
    await page.getByRole('button', { name: 'Forgot your password?' }).click();
    await page.getByRole('heading', { name: 'Forgot your password?' }).waitFor();
    await page.getByLabel('Username').fill('ines@example.test');
    await page.getByRole('button', { name: 'Send a code' }).click();
    await page.getByRole('heading', { name: 'Reset your password' }).waitFor();
    const code = verificationCode(lines, 'ines@example.test', 'password-reset');
    expect(code).to.match(/^\d{6}$/);
    await page.getByLabel('Verification code').fill(code!);
    await page.getByLabel('New password').fill('Changed-pass-456');
    await page.getByRole('button', { name: 'Change password' }).click();
    expect((await page.getByRole('status').textContent())?.trim()).to.equal('Your password was changed: sign in with the new one.');
    // The login page, the username filled in.
    expect(await page.getByLabel('Username').inputValue()).to.equal('ines@example.test');
    await page.getByLabel('Password', { exact: true }).first().fill('Changed-pass-456');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(`${CALLBACK_URL}**`);
    await page.context().close();
  });

  it('a user who signed up and never typed the code is confirmed from the console\'s Auth tab (service.auth.confirmUser), then signs in with their password', async () => {
    const { page } = await openLoginInBrowser(browser, as, client);
    const signUp = page.getByRole('region', { name: 'New here? Sign up' });
    await signUp.getByLabel('Email').fill('omar@example.test');
    await signUp.getByLabel('Password').fill('Omar-pass-123');
    await signUp.getByRole('button', { name: 'Sign up' }).click();
    await page.getByRole('heading', { name: 'Confirm your account' }).waitFor();
    await page.context().close();

    const console = await (await browser.newContext()).newPage();
    await console.goto(`${server.url}/_dev`);
    await console.getByRole('tab', { name: 'Auth', exact: true }).click();
    const omar = console.locator('#auth-users tr[data-user="omar@example.test"]');
    await omar.waitFor({ timeout: 15_000 });
    expect(await omar.locator('td').nth(4).innerText()).to.equal('enabled, unconfirmed');
    // ines, confirmed by her code above, has nothing to confirm
    expect(await console.locator('#auth-users tr[data-user="ines@example.test"]').getByRole('button', { name: /^Confirm/ }).count()).to.equal(0);
    await omar.getByRole('button', { name: 'Confirm omar@example.test' }).click();
    await console.locator('#auth-outcome', { hasText: 'Confirmed omar@example.test: they can sign in' }).waitFor({ timeout: 15_000 });
    await omar.locator('td', { hasText: /^enabled$/ }).waitFor({ timeout: 15_000 });
    expect(await omar.getByRole('button', { name: /^Confirm/ }).count()).to.equal(0);
    await console.context().close();

    const signIn = await openLoginInBrowser(browser, as, client);
    await signIn.page.getByLabel('Username').fill('omar@example.test');
    await signIn.page.getByLabel('Password', { exact: true }).first().fill('Omar-pass-123');
    await signIn.page.getByRole('button', { name: 'Sign in' }).click();
    await signIn.page.waitForURL(`${CALLBACK_URL}**`);
    await signIn.page.context().close();
  });
});
