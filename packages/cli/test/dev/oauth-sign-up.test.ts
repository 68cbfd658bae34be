import * as fs from 'node:fs';
import * as path from 'node:path';
import { localAppClientId } from '@framework/core';
import { expect } from 'chai';
import { decodeJwt } from 'jose';
import * as oauth from 'oauth4webapi';
import { runAuth } from '../../src/commands/auth.js';
import { CONSOLE_PATHS } from '../../src/dev/console/console-paths.js';
import { DevServer } from '../../src/dev/dev-server.js';
import { eventually } from './helpers.js';
import { ADMIN, ADMIN_ROUTE, CALLBACK_URL, loginProject, MEMBER, signUpProject, verificationCode } from './login-project.js';

const insecure = { [oauth.allowInsecureRequests]: true } as const;
const quiet = { info: () => undefined, warn: () => undefined, error: () => undefined };

/** Starts fw dev on `dir`, with OIDC discovery; `lines` collects what it says in the terminal, `printed` its tables. */
async function start(dir: string, lines: string[] = [], printed: string[] = []) {
  const server = await DevServer.start({ rootDir: dir, port: 0, log: { ...quiet, info: (line: string) => lines.push(line) }, print: (text) => printed.push(text), activityLog: false });
  const issuer = new URL(server.url);
  const as = await oauth.processDiscoveryResponse(issuer, await oauth.discoveryRequest(issuer, { ...insecure, algorithm: 'oidc' }));
  return { server, as };
}

/** A browser on the login page: the authorize request's page, its hidden fields and cookie, and a poster of its forms. */
async function openLoginPage(as: oauth.AuthorizationServer, serverUrl: string) {
  const clientId = localAppClientId('small', 'dev', 'web');
  const verifier = oauth.generateRandomCodeVerifier();
  const state = oauth.generateRandomState();
  const url = new URL(as.authorization_endpoint!);
  const params = { client_id: clientId, redirect_uri: CALLBACK_URL, response_type: 'code', scope: 'openid email', state, code_challenge: await oauth.calculatePKCECodeChallenge(verifier), code_challenge_method: 'S256' };
  for (const [name, value] of Object.entries(params)) url.searchParams.set(name, value);
  const page = await fetch(url, { redirect: 'manual' });
  expect(page.status).to.equal(200);
  const html = await page.text();
  const field = (name: string) => new RegExp(`name="${name}" value="([^"]*)"`).exec(html)![1]!;
  const cookie = page.headers.get('set-cookie')!.split(';')[0]!;
  const hidden = { transaction: field('transaction'), csrf: field('csrf') };
  const post = (pathname: string, fields: Record<string, string>) =>
    fetch(new URL(pathname, serverUrl), { method: 'POST', redirect: 'manual', headers: { 'content-type': 'application/x-www-form-urlencoded', cookie }, body: new URLSearchParams({ ...hidden, ...fields }) });
  return { html, post, verifier, state, client: { client_id: clientId } as oauth.Client };
}

describe('self sign-up on the dev issuer\'s managed login (infrastructure.auth.selfSignUp)', function () {
  this.timeout(60_000);
  let dir: string;
  let server: DevServer;
  let as: oauth.AuthorizationServer;
  const lines: string[] = [];
  const printed: string[] = [];
  const lastCode = (email: string) => verificationCode(lines, email);

  before(async () => {
    dir = signUpProject();
    fs.mkdirSync(path.join(dir, 'src/routes/auth-admin'), { recursive: true });
    fs.writeFileSync(path.join(dir, 'src/routes/auth-admin/post.ts'), ADMIN_ROUTE);
    ({ server, as } = await start(dir, lines, printed));
  });
  after(async () => {
    await server?.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('signs up, confirms with the emailed code, and comes back signed in: a user in no role with everyUser\'s scopes', async () => {
    const page = await openLoginPage(as, server.url);
    expect(page.html).to.contain('id="sign-up"').and.contain('At least 10 characters');
    const signedUp = await page.post('/oauth2/signup', { email: 'Founder@Example.test', password: 'Sign-up-pass-1' });
    expect(signedUp.status).to.equal(200);
    expect(await signedUp.text()).to.contain('Confirm your account').and.contain('founder@example.test');
    const code = lastCode('founder@example.test');
    expect(code, 'the code in the terminal').to.match(/^\d{6}$/);
    // And in the local inbox, as the email the deployed pool sends.
    const mail = await eventually(async () => {
      const inbox = (await (await fetch(`${server.url}/_dev/inbox`)).json()) as { messages: Array<{ to: string; channel: string; email?: { from: string; subject: string; text?: string } }> };
      return inbox.messages.find((m) => m.to === 'founder@example.test');
    }, 15_000, 'the verification email in the local inbox');
    expect(mail.email).to.deep.include({ from: 'no-reply@verificationemail.com', subject: 'Your verification code', text: `Your verification code is ${code}.` });

    // A wrong code first: the page again, nothing confirmed.
    const wrong = await page.post('/oauth2/confirm', { email: 'founder@example.test', code: code === '000000' ? '000001' : '000000' });
    expect(wrong.status).to.equal(400);
    expect(await wrong.text()).to.contain('Invalid verification code provided');

    const confirmed = await page.post('/oauth2/confirm', { email: 'founder@example.test', code: code! });
    expect(confirmed.status).to.equal(302);
    const callback = new URL(confirmed.headers.get('location')!);
    const params = oauth.validateAuthResponse(as, page.client, callback, page.state);
    const tokens = await oauth.processAuthorizationCodeResponse(as, page.client, await oauth.authorizationCodeGrantRequest(as, page.client, oauth.None(), params, CALLBACK_URL, page.verifier, insecure));
    const access = decodeJwt(tokens.access_token);
    expect(access).to.deep.include({ username: 'founder@example.test', scope: 'openid email small/items:read' });
    expect(access).to.not.have.property('cognito:groups');
    const items = await fetch(`${server.url}/items`, { headers: { authorization: `Bearer ${tokens.access_token}` } });
    expect(items.status).to.equal(200);
    expect(await items.json()).to.deep.equal({ subject: access.sub });

    const stored = JSON.parse(fs.readFileSync(path.join(dir, '.fw', 'dev', 'auth', 'users.json'), 'utf8')) as { users: Array<{ username: string; status?: string; roles: string[]; passwordHash: string }> };
    const user = stored.users.find((u) => u.username === 'founder@example.test')!;
    expect(user).to.deep.include({ status: 'CONFIRMED', roles: [] });
    expect(user.passwordHash).to.match(/^scrypt\$/);
  });

  it('fw dev\'s start-up table says sign-up is open, though no user is seeded', async () => {
    await eventually(async () => (printed.join('').includes('Sign in') ? true : undefined), 30_000, 'the start-up table');
    expect(printed.join('')).to.contain('sign-up: open on the login page (the verification code of each new account is printed here)');
  });

    it('refuses what the deployed pool refuses: a password off its policy, an address that is not one, one taken', async () => {
    const page = await openLoginPage(as, server.url);
    for (const [password, problem] of [
      ['Short-1', 'Password not long enough (at least 10 characters)'],
      ['no-upper-case-1', 'Password must have uppercase characters'],
      ['NO-LOWER-CASE-1', 'Password must have lowercase characters'],
      ['No-digits-here', 'Password must have numeric characters'],
      ['NoSymbols12345', 'Password must have symbol characters'],
    ]) {
      const answer = await page.post('/oauth2/signup', { email: 'weak@example.test', password: password! });
      expect(answer.status, password).to.equal(400);
      expect(await answer.text(), password).to.contain(`Password did not conform with policy: ${problem}`);
    }
    const notAnAddress = await page.post('/oauth2/signup', { email: 'not an address', password: 'Sign-up-pass-1' });
    expect(notAnAddress.status).to.equal(400);
    expect(await notAnAddress.text()).to.contain('Invalid email address format.');
    expect(await (await page.post('/oauth2/signup', { email: 'twice@example.test', password: 'Sign-up-pass-1' })).text()).to.contain('Confirm your account');
    const taken = await page.post('/oauth2/signup', { email: 'twice@example.test', password: 'Other-pass-22' });
    expect(taken.status).to.equal(400);
    expect(await taken.text()).to.contain('An account with the given email already exists.');
    expect(lastCode('weak@example.test')).to.equal(undefined);
  });

  it('an account not confirmed yet cannot sign in: its password gets a new code and the confirm page', async () => {
    const page = await openLoginPage(as, server.url);
    await page.post('/oauth2/signup', { email: 'later@example.test', password: 'Sign-up-pass-1' });
    const first = lastCode('later@example.test');
    const signIn = await page.post('/oauth2/login', { username: 'later@example.test', password: 'Sign-up-pass-1' });
    expect(signIn.status).to.equal(401);
    expect(signIn.headers.get('location')).to.equal(null);
    expect(await signIn.text()).to.contain('User is not confirmed');
    const second = lastCode('later@example.test');
    expect(lines.filter((line) => line.startsWith('later@example.test signed up'))).to.have.length(2);
    // The new code confirms (the first one was replaced).
    if (first !== second) expect((await page.post('/oauth2/confirm', { email: 'later@example.test', code: first! })).status).to.equal(400);
    expect((await page.post('/oauth2/confirm', { email: 'later@example.test', code: second! })).status).to.equal(302);
  });

  it('an account whose code never came is confirmed by support: service.auth.confirmUser in a handler, fw auth users confirm in a shell; nothing to confirm is refused', async () => {
    const call = async (action: string, ...args: unknown[]) => {
      const answer = await fetch(`${server.url}/auth-admin`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ action, args }) });
      expect(answer.status, await answer.clone().text()).to.equal(201);
      return (await answer.json()) as { result?: any; error?: { name: string; code: string; message: string } };
    };
    const page = await openLoginPage(as, server.url);
    await page.post('/oauth2/signup', { email: 'lost@example.test', password: 'Sign-up-pass-1' });
    await page.post('/oauth2/signup', { email: 'lost-too@example.test', password: 'Sign-up-pass-2' });
    expect((await call('getUser', 'lost@example.test')).result).to.deep.include({ status: 'UNCONFIRMED', roles: [] });
    expect((await page.post('/oauth2/login', { username: 'lost@example.test', password: 'Sign-up-pass-1' })).status).to.equal(401);

    // In a handler (the dev server's user admin, as AdminConfirmSignUp deployed): then the password signs in.
    expect((await call('confirmUser', 'lost@example.test')).result).to.equal(null);
    expect((await call('getUser', 'lost@example.test')).result).to.deep.include({ status: 'CONFIRMED' });
    expect((await (await openLoginPage(as, server.url)).post('/oauth2/login', { username: 'lost@example.test', password: 'Sign-up-pass-1' })).status).to.equal(302);
    // Twice, or a user created by an admin: NothingToConfirmError naming the status; an unknown user: UserNotFoundError.
    const twice = (await call('confirmUser', 'lost@example.test')).error!;
    expect(twice).to.include({ name: 'NothingToConfirmError', code: 'FW_ERR_AUTH_NOTHING_TO_CONFIRM' });
    expect(twice.message).to.contain('their status is CONFIRMED');
    await call('createUser', { username: 'staff', temporaryPassword: 'Temp-pass-123' });
    expect((await call('confirmUser', 'staff')).error!.message).to.contain('their status is FORCE_CHANGE_PASSWORD').and.contain('signs in with it');
    expect((await call('confirmUser', 'nobody@example.test')).error).to.include({ name: 'UserNotFoundError', code: 'FW_ERR_AUTH_USER_NOT_FOUND' });

    // From a shell, on the store the running fw dev reads.
    const out: string[] = [];
    expect(await runAuth(['users', 'confirm', 'lost-too@example.test'], { cwd: dir, out: (line) => out.push(line) })).to.equal(0);
    expect(out.join('\n')).to.contain('confirmed lost-too@example.test (').and.contain('they can sign in');
    expect((await (await openLoginPage(as, server.url)).post('/oauth2/login', { username: 'lost-too@example.test', password: 'Sign-up-pass-2' })).status).to.equal(302);
    const again = await runAuth(['users', 'confirm', 'lost-too@example.test'], { cwd: dir, out: () => undefined }).catch((error: unknown) => error);
    expect(again).to.include({ name: 'NothingToConfirmError', code: 'FW_ERR_AUTH_NOTHING_TO_CONFIRM' });

    // The console's Auth tab calls the same admin: 409 with the status.
    const refused = await fetch(`${server.url}${CONSOLE_PATHS.auth}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ action: 'confirmUser', args: ['lost-too@example.test'] }) });
    expect(refused.status).to.equal(409);
    expect(((await refused.json()) as { error: unknown }).error).to.deep.include({ code: 'FW_ERR_AUTH_NOTHING_TO_CONFIRM', username: 'lost-too@example.test', status: 'CONFIRMED' });
  });

  it('a sign-up form posted without the login page\'s CSRF cookie is refused (403), and no account is made', async () => {
    const page = await openLoginPage(as, server.url);
    const transaction = /name="transaction" value="([^"]*)"/.exec(page.html)![1]!;
    const csrf = /name="csrf" value="([^"]*)"/.exec(page.html)![1]!;
    const forged = await fetch(new URL('/oauth2/signup', server.url), { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ transaction, csrf, email: 'forged@example.test', password: 'Sign-up-pass-1' }) });
    expect(forged.status).to.equal(403);
    expect(lastCode('forged@example.test')).to.equal(undefined);
  });
});

describe('an app without self sign-up, and the managed login\'s "Forgot your password?"', function () {
  this.timeout(60_000);
  let dir: string;
  let server: DevServer;
  let as: oauth.AuthorizationServer;
  const lines: string[] = [];

  before(async () => {
    dir = loginProject();
    ({ server, as } = await start(dir, lines));
  });
  after(async () => {
    await server?.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('shows no sign-up form, and refuses a sign-up posted anyway (403, as Cognito\'s SignUp is refused)', async () => {
    const page = await openLoginPage(as, server.url);
    expect(page.html).to.not.contain('id="sign-up"');
    const answer = await page.post('/oauth2/signup', { email: 'someone@example.test', password: 'Sign-up-pass-1' });
    expect(answer.status).to.equal(403);
    expect(await answer.text()).to.contain('SignUp is not permitted for this user pool');
  });

  it('"Forgot your password?": a code to the user\'s email, then a new password of the pool\'s policy; the old one no longer signs in', async () => {
    const page = await openLoginPage(as, server.url);
    expect(page.html).to.contain('Forgot your password?');
    const asked = await page.post('/oauth2/forgot', {});
    expect(asked.status).to.equal(200);
    expect(await asked.text()).to.contain('name="username"').and.contain('Send a code');
    const sent = await page.post('/oauth2/forgot', { username: MEMBER.username });
    expect(await sent.text()).to.contain('Reset your password');
    const code = verificationCode(lines, MEMBER.username, 'password-reset');
    expect(code).to.match(/^\d{6}$/);

    // A password off the policy (12 characters by default) does not use the code up; a wrong code is refused.
    const weak = await page.post('/oauth2/reset', { username: MEMBER.username, code: code!, password: 'short-1A!' });
    expect(weak.status).to.equal(400);
    expect(await weak.text()).to.contain('Password did not conform with policy: Password not long enough');
    const wrong = await page.post('/oauth2/reset', { username: MEMBER.username, code: code === '000000' ? '000001' : '000000', password: 'New-member-pass-1' });
    expect(wrong.status).to.equal(400);
    expect(await wrong.text()).to.contain('Invalid verification code provided');

    const changed = await page.post('/oauth2/reset', { username: MEMBER.username, code: code!, password: 'New-member-pass-1' });
    expect(changed.status).to.equal(200);
    expect(await changed.text()).to.contain('Your password was changed: sign in with the new one.');
    expect((await page.post('/oauth2/login', { username: MEMBER.username, password: MEMBER.password })).status).to.equal(401);
    expect((await page.post('/oauth2/login', { username: MEMBER.username, password: 'New-member-pass-1' })).status).to.equal(302);
    // The code was used: it does not change the password again.
    const again = await (await openLoginPage(as, server.url)).post('/oauth2/reset', { username: MEMBER.username, code: code!, password: 'Other-member-pass-2' });
    expect(again.status).to.equal(400);
  });

  it('the same page for an unknown user and for one without an email address, and no code for either', async () => {
    const page = await openLoginPage(as, server.url);
    const texts: string[] = [];
    for (const username of ['nobody', ADMIN.username]) {
      const answer = await page.post('/oauth2/forgot', { username });
      expect(answer.status).to.equal(200);
      texts.push((await answer.text()).replaceAll(username, '<username>'));
      expect(verificationCode(lines, username, 'password-reset'), username).to.equal(undefined);
    }
    expect(texts[0]).to.equal(texts[1]);
  });
});
