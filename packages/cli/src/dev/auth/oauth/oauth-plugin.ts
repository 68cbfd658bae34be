import { randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import { DEV_OAUTH_PATHS, type AppClientConfig, type AppDefinition } from '@framework/core';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { localClientId, tokenScope } from '../issuer-plugin.js';
import { TokenRejected, type LocalIssuer } from '../local-issuer.js';
import { hashPassword, type StoredUser, type UserStore } from '../user-store.js';
import { ExpiringStore } from './expiring-store.js';
import { PAGE_HEADERS, renderLoginPage, renderStepPage, type StepPage } from './login-page.js';
import { pkceMatches, S256_CHALLENGE } from './pkce.js';
import { ConfirmationCodes, isEmailAddress, passwordPolicyProblem } from './sign-up.js';
import { mintUserTokens, OIDC_SCOPES, TOKEN_SECONDS, type UserGrant } from './user-tokens.js';

/** An authorize request that passed its checks, waiting for the user to sign in on the login page. */
interface LoginTransaction {
  readonly clientName: string;
  readonly redirectUri: string;
  readonly state?: string;
  readonly codeChallenge: string;
  readonly requestedScopes: readonly string[];
  readonly nonce?: string;
  /** The login form's CSRF token, also set as a cookie: a form posted from another site has neither. */
  readonly csrf: string;
}

/** What an authorization code is bound to (RFC 6749 4.1.3, RFC 7636 4.6). */
interface CodeGrant extends UserGrant {
  readonly redirectUri: string;
  readonly codeChallenge: string;
}

/** Options of `oauthPlugin`. */
export interface OAuthPluginOptions {
  /**
   * Delivers a verification code, as the deployed pool emails it: `sign-up` confirms an account that signed up (or an
   * unconfirmed one signing in), `password-reset` lets a user who forgot their password choose a new one.
   * @default - not delivered
   */
  readonly verificationCode?: (delivery: { readonly purpose: 'sign-up' | 'password-reset'; readonly username: string; readonly email: string; readonly code: string }) => void;
}

/** Cognito's lifetimes: a code lives 5 minutes; a login page is left open for up to 10; a refresh token 30 days. */
const CODE_SECONDS = 300;
const LOGIN_SECONDS = 600;
const REFRESH_SECONDS = 30 * 24 * 3600;

const CSRF_COOKIE = 'fw_dev_login_csrf';

/** An OAuth error the token endpoint answers with (RFC 6749 5.2). */
type TokenError = 'invalid_request' | 'invalid_client' | 'invalid_grant' | 'unauthorized_client' | 'unsupported_grant_type';

/** Parameters of a query or form body; a parameter given twice counts as absent-and-invalid (RFC 6749 3.1). */
function parametersOf(text: string): { get(name: string): string | undefined; repeated: string[] } {
  const params = new URLSearchParams(text);
  const repeated = [...new Set([...params.keys()].filter((k) => params.getAll(k).length > 1))];
  return { get: (name) => params.get(name) ?? undefined, repeated };
}

function formBody(request: FastifyRequest): string {
  return (request.body as Buffer | undefined)?.toString('utf8') ?? '';
}

function isForm(request: FastifyRequest): boolean {
  return (request.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase() === 'application/x-www-form-urlencoded';
}

function cookie(request: FastifyRequest, name: string): string | undefined {
  for (const part of (request.headers.cookie ?? '').split(';')) {
    const [key, ...value] = part.trim().split('=');
    if (key === name) return value.join('=');
  }
  return undefined;
}

function sameSecret(a: string | undefined, b: string | undefined): boolean {
  if (a === undefined || b === undefined || a.length !== b.length) return false;
  return timingSafeEqual(Buffer.from(a), Buffer.from(b));
}

/** A plain page for errors that must not redirect (unknown client, unregistered redirect_uri: RFC 6749 4.1.2.1). */
function errorPage(reply: FastifyReply, status: number, error: string, description: string): FastifyReply {
  const e = (t: string) => t.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
  return reply
    .code(status)
    .headers(PAGE_HEADERS)
    .send(`<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><title>${e(error)}</title></head><body><h1>${e(error)}</h1><p id="error">${e(description)}</p></body></html>\n`);
}

/** `redirectUri` with `params` added to its query (it may have one already). */
function withQuery(redirectUri: string, params: Record<string, string | undefined>): string {
  const url = new URL(redirectUri);
  for (const [name, value] of Object.entries(params)) if (value !== undefined) url.searchParams.set(name, value);
  return url.toString();
}

/** The app client whose local id is `clientId` (`localClientId`), by name. */
function clientById(app: AppDefinition, clientId: string | undefined): [string, AppClientConfig] | undefined {
  if (clientId === undefined) return undefined;
  return Object.entries(app.config.security.appClients ?? {}).find(([name]) => localClientId(app, name) === clientId);
}

/**
 * The dev issuer's OAuth 2.0 / OpenID Connect surface, at Cognito's paths and with Cognito's rules, so a front end
 * logs in against `fw dev` as against the user pool's managed login:
 *
 * | route | answer |
 * |---|---|
 * | `GET /oauth2/authorize` | the login page; authorization code flow only, PKCE S256 required, `redirect_uri` one of the client's `callbackUrls` |
 * | `POST /oauth2/login` | the login form: 302 to `redirect_uri?code&state`; a wrong password shows the page again (401) |
 * | `POST /oauth2/signup` | with self sign-up: a new unconfirmed account (email, a password of the pool's policy), then the confirm page |
 * | `POST /oauth2/confirm` | the code sent to the new account's email: confirmed and signed in, 302 as the login form |
 * | `POST /oauth2/forgot` | "Forgot your password?": the page asking for the username, then a reset code to the user's email |
 * | `POST /oauth2/reset` | the reset code and a new password of the pool's policy: changed, the login page again |
 * | `POST /oauth2/token` | `authorization_code` (code single use, bound to client, redirect_uri and verifier; 5 minutes), `refresh_token`, `client_credentials` |
 * | `GET /oauth2/userInfo` | the signed-in user's claims, for an access token with `openid` |
 * | `GET /logout` | 302 to `logout_uri` when it is one of the client's `logoutUrls` |
 */
export function oauthPlugin(issuer: LocalIssuer, users: UserStore, currentApp: () => AppDefinition, options: OAuthPluginOptions = {}): FastifyPluginAsync {
  const confirmationCodes = new ConfirmationCodes();
  const resetCodes = new ConfirmationCodes();
  const transactions = new ExpiringStore<LoginTransaction>(LOGIN_SECONDS);
  const codes = new ExpiringStore<CodeGrant>(CODE_SECONDS);
  // `issuedAt` (ms): a global sign-out of the user (`signedOutAt`) revokes the refresh tokens issued before it.
  const refreshTokens = new ExpiringStore<UserGrant & { readonly issuedAt: number }>(REFRESH_SECONDS);

  const loginPage = (reply: FastifyReply, app: AppDefinition, id: string, transaction: LoginTransaction, extra: { username?: string; error?: string; notice?: string; signUp?: { email?: string; error?: string } } = {}) =>
    reply.headers(PAGE_HEADERS).send(
      renderLoginPage({
        action: DEV_OAUTH_PATHS.login,
        appName: app.project,
        clientName: transaction.clientName,
        transaction: id,
        csrf: transaction.csrf,
        identityProviders: Object.entries(app.auth?.identityProviders ?? {}).map(([name, provider]) => ({ name, type: provider.type })),
        mfa: app.auth?.mfa ?? 'off',
        ...(extra.username !== undefined ? { username: extra.username } : {}),
        ...(extra.error !== undefined ? { error: extra.error } : {}),
        ...(extra.notice !== undefined ? { notice: extra.notice } : {}),
        forgotPassword: DEV_OAUTH_PATHS.forgotPassword,
        ...(app.auth?.selfSignUp ? { signUp: { action: DEV_OAUTH_PATHS.signUp, passwordMinLength: app.auth.passwordMinLength, ...extra.signUp } } : {}),
      }),
    );

  const stepPage = (reply: FastifyReply, app: AppDefinition, id: string, transaction: LoginTransaction, page: Omit<StepPage, 'appName' | 'form'> & { form: Omit<StepPage['form'], 'transaction' | 'csrf'> }) =>
    reply.headers(PAGE_HEADERS).send(renderStepPage({ ...page, appName: app.project, form: { ...page.form, transaction: id, csrf: transaction.csrf } }));

  const confirmPage = (reply: FastifyReply, app: AppDefinition, id: string, transaction: LoginTransaction, email: string, error?: string) =>
    stepPage(reply, app, id, transaction, {
      heading: 'Confirm your account',
      intro: ['We sent a code to ', { strong: email, id: 'confirm-email' }, '. Locally it is in the fw dev terminal, and in the local inbox when the app sends notifications.'],
      ...(error !== undefined ? { error } : {}),
      form: { id: 'confirm', action: DEV_OAUTH_PATHS.confirmSignUp, hidden: { email }, fields: [{ name: 'code', label: 'Verification code', kind: 'code' }], button: 'Confirm account' },
    });

  const forgotPage = (reply: FastifyReply, app: AppDefinition, id: string, transaction: LoginTransaction) =>
    stepPage(reply, app, id, transaction, {
      heading: 'Forgot your password?',
      intro: ['Enter your username: we send a code to its email address to reset the password.'],
      form: { id: 'forgot', action: DEV_OAUTH_PATHS.forgotPassword, fields: [{ name: 'username', label: 'Username', kind: 'username' }], button: 'Send a code' },
    });

  const resetPage = (reply: FastifyReply, app: AppDefinition, id: string, transaction: LoginTransaction, username: string, error?: string) =>
    stepPage(reply, app, id, transaction, {
      heading: 'Reset your password',
      // The same words whether or not the account exists: the page does not tell which usernames do.
      intro: ['If ', { strong: username, id: 'reset-username' }, ' has an account with an email address, we sent a code there. Locally it is in the fw dev terminal, and in the local inbox when the app sends notifications.'],
      ...(error !== undefined ? { error } : {}),
      form: {
        id: 'reset',
        action: DEV_OAUTH_PATHS.resetPassword,
        hidden: { username },
        fields: [
          { name: 'code', label: 'Verification code', kind: 'code' },
          { name: 'password', label: 'New password', kind: 'new-password', minLength: app.auth?.passwordMinLength ?? 8 },
        ],
        button: 'Change password',
      },
    });

  /** Sends a new confirmation code to an unconfirmed user's address (the terminal, the local inbox). */
  const sendCode = (user: StoredUser) => options.verificationCode?.({ purpose: 'sign-up', username: user.username, email: user.email ?? user.username, code: confirmationCodes.issue(user.username) });

  /** The user signed in through `transaction`: its code, and the redirect back to the app. */
  const signedIn = (reply: FastifyReply, id: string, transaction: LoginTransaction, user: StoredUser) => {
    transactions.take(id);
    const code = codes.add({
      sub: user.sub,
      clientName: transaction.clientName,
      requestedScopes: transaction.requestedScopes,
      ...(transaction.nonce !== undefined ? { nonce: transaction.nonce } : {}),
      authTime: Math.floor(Date.now() / 1000),
      redirectUri: transaction.redirectUri,
      codeChallenge: transaction.codeChallenge,
    });
    reply.header('set-cookie', `${CSRF_COOKIE}=; Path=/oauth2; HttpOnly; SameSite=Lax; Max-Age=0`);
    return reply.redirect(withQuery(transaction.redirectUri, { code, state: transaction.state }), 302);
  };

  /** The form of a login page this issuer served: its transaction, checked against the CSRF token and its cookie. */
  const postedForm = (request: FastifyRequest, reply: FastifyReply) => {
    if (!isForm(request)) return { answer: errorPage(reply, 415, 'invalid_request', 'the login form posts application/x-www-form-urlencoded') } as const;
    const form = parametersOf(formBody(request));
    const id = form.get('transaction') ?? '';
    const transaction = transactions.get(id);
    if (!transaction) return { answer: errorPage(reply, 400, 'invalid_request', 'this sign-in has expired or is unknown (the login page lives 10 minutes, and a restart of fw dev forgets it); start again from the app') } as const;
    if (!sameSecret(form.get('csrf'), transaction.csrf) || !sameSecret(cookie(request, CSRF_COOKIE), transaction.csrf)) {
      return { answer: errorPage(reply, 403, 'invalid_request', 'the login form was not posted from the page this dev issuer served (CSRF token missing or wrong); start again from the app') } as const;
    }
    return { form, id, transaction } as const;
  };

  return async (server) => {
    server.get(DEV_OAUTH_PATHS.authorize, async (request, reply) => {
      const app = currentApp();
      const query = parametersOf((request.raw.url ?? '').split('?')[1] ?? '');
      const clientId = query.get('client_id');
      const client = clientById(app, clientId);
      if (!client) {
        const known = Object.keys(app.config.security.appClients ?? {}).map((name) => `${name}: ${localClientId(app, name)}`);
        return errorPage(reply, 400, 'invalid_client', `client_id ${JSON.stringify(clientId ?? '')} is not an app client of this app; the local client ids are ${known.join(', ') || '(no app clients: declare one in config/security.ts)'}`);
      }
      const [clientName, config] = client;
      const redirectUri = query.get('redirect_uri');
      if (redirectUri === undefined || !(config.callbackUrls ?? []).includes(redirectUri) || query.repeated.includes('redirect_uri')) {
        return errorPage(reply, 400, 'invalid_request', `redirect_uri ${JSON.stringify(redirectUri ?? '')} is not one of app client "${clientName}"'s callbackUrls (${(config.callbackUrls ?? []).join(', ') || 'none'}); add it to callbackUrls in config/security.ts`);
      }
      const state = query.get('state');
      // From here on, errors go back to the client's redirect_uri (RFC 6749 4.1.2.1).
      const fail = (error: string, description: string) => reply.redirect(withQuery(redirectUri, { error, error_description: description, state }), 302);
      if (query.repeated.length) return fail('invalid_request', `parameter${query.repeated.length > 1 ? 's' : ''} ${query.repeated.join(', ')} given more than once`);
      if (query.get('response_type') !== 'code') return fail('unsupported_response_type', 'only response_type=code (the authorization code flow) is supported');
      if (!config.flows.includes('authorization_code')) return fail('unauthorized_client', `app client "${clientName}" does not have the authorization_code flow in config/security.ts`);
      const challenge = query.get('code_challenge');
      if (challenge === undefined || query.get('code_challenge_method') !== 'S256') return fail('invalid_request', 'PKCE is required: send code_challenge with code_challenge_method=S256');
      if (!S256_CHALLENGE.test(challenge)) return fail('invalid_request', 'code_challenge is not an S256 challenge (43 base64url characters)');
      const requestedScopes = (query.get('scope') ?? '').split(' ').filter(Boolean);
      const allowed = [...OIDC_SCOPES, ...config.scopes, ...config.scopes.map((s) => tokenScope(app, s))];
      const notAllowed = requestedScopes.filter((s) => !allowed.includes(s));
      if (notAllowed.length) return fail('invalid_scope', `app client "${clientName}" may not request ${notAllowed.join(', ')}`);
      const transaction: LoginTransaction = { clientName, redirectUri, ...(state !== undefined ? { state } : {}), codeChallenge: challenge, requestedScopes, ...(query.get('nonce') !== undefined ? { nonce: query.get('nonce') } : {}), csrf: randomBytes(32).toString('base64url') };
      const id = transactions.add(transaction);
      reply.header('set-cookie', `${CSRF_COOKIE}=${transaction.csrf}; Path=/oauth2; HttpOnly; SameSite=Lax; Max-Age=${LOGIN_SECONDS}`);
      return loginPage(reply, app, id, transaction);
    });

    server.post(DEV_OAUTH_PATHS.login, async (request, reply) => {
      const app = currentApp();
      const posted = postedForm(request, reply);
      if ('answer' in posted) return posted.answer;
      const { form, id, transaction } = posted;
      const username = form.get('username') ?? '';
      const user = await users.authenticate(username, form.get('password') ?? '');
      if (!user) return loginPage(reply.code(401), app, id, transaction, { username, error: 'Incorrect username or password.' });
      // Signed up, never confirmed (Cognito answers so once the password matched): a new code, and the confirm page.
      if (user.status === 'UNCONFIRMED') {
        sendCode(user);
        return confirmPage(reply.code(401), app, id, transaction, user.username, 'User is not confirmed: enter the code just sent to your email address.');
      }
      return signedIn(reply, id, transaction, user);
    });

    server.post(DEV_OAUTH_PATHS.signUp, async (request, reply) => {
      const app = currentApp();
      const posted = postedForm(request, reply);
      if ('answer' in posted) return posted.answer;
      const { form, id, transaction } = posted;
      // As Cognito's SignUp: refused outright when the pool does not let users sign themselves up.
      if (!app.auth?.selfSignUp) return errorPage(reply, 403, 'invalid_request', 'SignUp is not permitted for this user pool: users cannot sign themselves up (set infrastructure.auth.selfSignUp to true in fw.config.ts to allow it)');
      const email = (form.get('email') ?? '').trim().toLowerCase();
      const password = form.get('password') ?? '';
      const refuse = (error: string) => loginPage(reply.code(400), app, id, transaction, { signUp: { email, error } });
      if (!isEmailAddress(email)) return refuse('Invalid email address format.');
      const weak = passwordPolicyProblem(password, app.auth.passwordMinLength);
      if (weak) return refuse(weak);
      // The deployed pool signs users in with their email address: it is the account's name here.
      const user: StoredUser = { sub: randomUUID(), username: email, email, roles: [], passwordHash: await hashPassword(password), seeded: false, status: 'UNCONFIRMED', createdAt: new Date().toISOString() };
      if (users.byUsername(email) || !users.add(user)) return refuse('An account with the given email already exists.');
      sendCode(user);
      return confirmPage(reply, app, id, transaction, email);
    });

    server.post(DEV_OAUTH_PATHS.confirmSignUp, async (request, reply) => {
      const app = currentApp();
      const posted = postedForm(request, reply);
      if ('answer' in posted) return posted.answer;
      const { form, id, transaction } = posted;
      const email = form.get('email') ?? '';
      const user = users.byUsername(email);
      if (!user || user.status !== 'UNCONFIRMED') return loginPage(reply.code(400), app, id, transaction, { username: email, error: 'This account needs no confirmation (or does not exist): sign in.' });
      const check = confirmationCodes.check(user.username, (form.get('code') ?? '').trim());
      if (check === 'wrong') return confirmPage(reply.code(400), app, id, transaction, email, 'Invalid verification code provided, please try again.');
      if (check === 'expired') {
        sendCode(user);
        return confirmPage(reply.code(400), app, id, transaction, email, 'That code has expired or was used up: a new one was just sent.');
      }
      users.update(user.username, (u) => ({ ...u, status: 'CONFIRMED' }));
      // Confirmed, the user is signed in, as after Cognito's managed login sign-up.
      return signedIn(reply, id, transaction, users.byUsername(user.username)!);
    });

    server.post(DEV_OAUTH_PATHS.forgotPassword, async (request, reply) => {
      const app = currentApp();
      const posted = postedForm(request, reply);
      if ('answer' in posted) return posted.answer;
      const { form, id, transaction } = posted;
      const username = (form.get('username') ?? '').trim();
      // The login page's button: the page asking for the username.
      if (username === '') return forgotPage(reply, app, id, transaction);
      // A code only for a confirmed, enabled user with an email address (Cognito refuses the others); the same page for
      // every username, so it does not tell which exist.
      const user = users.byUsername(username);
      if (user?.email && user.enabled !== false && (user.status ?? 'CONFIRMED') === 'CONFIRMED') {
        options.verificationCode?.({ purpose: 'password-reset', username: user.username, email: user.email, code: resetCodes.issue(user.username) });
      }
      return resetPage(reply, app, id, transaction, username);
    });

    server.post(DEV_OAUTH_PATHS.resetPassword, async (request, reply) => {
      const app = currentApp();
      const posted = postedForm(request, reply);
      if ('answer' in posted) return posted.answer;
      const { form, id, transaction } = posted;
      const username = form.get('username') ?? '';
      const password = form.get('password') ?? '';
      // The policy first: a password it refuses does not use up the code.
      const weak = passwordPolicyProblem(password, app.auth?.passwordMinLength ?? 8);
      if (weak) return resetPage(reply.code(400), app, id, transaction, username, weak);
      const check = resetCodes.check(username, (form.get('code') ?? '').trim());
      if (check === 'wrong') return resetPage(reply.code(400), app, id, transaction, username, 'Invalid verification code provided, please try again.');
      if (check === 'expired' || !users.byUsername(username)) return resetPage(reply.code(400), app, id, transaction, username, 'Invalid code provided, please request a code again.');
      const passwordHash = await hashPassword(password);
      users.update(username, (user) => ({ ...user, passwordHash }));
      return loginPage(reply, app, id, transaction, { username, notice: 'Your password was changed: sign in with the new one.' });
    });

    server.post(DEV_OAUTH_PATHS.token, async (request, reply) => {
      reply.headers({ 'cache-control': 'no-store', 'pragma': 'no-cache' });
      const fail = (error: TokenError, description: string) => {
        if (error === 'invalid_client') reply.header('www-authenticate', 'Basic realm="fw dev"');
        return reply.code(error === 'invalid_client' ? 401 : 400).send({ error, error_description: description });
      };
      if (!isForm(request)) return fail('invalid_request', 'send the token request as application/x-www-form-urlencoded (RFC 6749 4.1.3)');
      const app = currentApp();
      const form = parametersOf(formBody(request));
      if (form.repeated.length) return fail('invalid_request', `parameter${form.repeated.length > 1 ? 's' : ''} ${form.repeated.join(', ')} given more than once`);
      // The client authenticates with its id in the body (a public client) or HTTP Basic; locally its secret is not checked.
      const basic = /^Basic\s+(\S+)$/i.exec(request.headers.authorization ?? '');
      const basicId = basic ? decodeURIComponent(Buffer.from(basic[1]!, 'base64').toString('utf8').split(':')[0]!) : undefined;
      const clientId = basicId ?? form.get('client_id');
      const client = clientById(app, clientId);
      if (!client) return fail('invalid_client', `client_id ${JSON.stringify(clientId ?? '')} is not an app client of this app`);
      const [clientName, config] = client;
      const grantType = form.get('grant_type');
      if (grantType === 'authorization_code') {
        const grant = codes.take(form.get('code') ?? '');
        if (!grant) return fail('invalid_grant', 'the authorization code is unknown, expired (5 minutes) or already used');
        if (grant.clientName !== clientName) return fail('invalid_grant', 'the authorization code was issued to another client');
        if (form.get('redirect_uri') !== grant.redirectUri) return fail('invalid_grant', 'redirect_uri differs from the one of the authorize request');
        const verifier = form.get('code_verifier');
        if (verifier === undefined || !pkceMatches(verifier, grant.codeChallenge)) return fail('invalid_grant', 'code_verifier does not match the code_challenge of the authorize request (PKCE)');
        const user = users.bySub(grant.sub);
        if (!user) return fail('invalid_grant', 'the user no longer exists');
        if (user.enabled === false) return fail('invalid_grant', 'the user is disabled');
        const { redirectUri: _r, codeChallenge: _c, ...userGrant } = grant;
        const tokens = await mintUserTokens(issuer, app, user, userGrant);
        return { ...tokens, refresh_token: refreshTokens.add({ ...userGrant, issuedAt: Date.now() }) };
      }
      if (grantType === 'refresh_token') {
        if (!config.flows.includes('refresh_token') && !config.flows.includes('authorization_code')) return fail('unauthorized_client', `app client "${clientName}" has no user flow`);
        const grant = refreshTokens.get(form.get('refresh_token') ?? '');
        if (!grant || grant.clientName !== clientName) return fail('invalid_grant', 'the refresh token is unknown, expired, or was issued to another client (a restart of fw dev forgets refresh tokens)');
        const user = users.bySub(grant.sub);
        if (!user) return fail('invalid_grant', 'the user no longer exists');
        if (user.enabled === false) return fail('invalid_grant', 'the user is disabled');
        if (user.signedOutAt !== undefined && grant.issuedAt <= user.signedOutAt) return fail('invalid_grant', 'the refresh token has been revoked (the user was signed out everywhere)');
        const { issuedAt: _issuedAt, ...userGrant } = grant;
        return mintUserTokens(issuer, app, user, userGrant);
      }
      if (grantType === 'client_credentials') {
        if (!config.flows.includes('client_credentials')) return fail('unauthorized_client', `app client "${clientName}" does not have the client_credentials flow in config/security.ts`);
        // Bare or prefixed names (`tasks:read`, `tasks-api/tasks:read`); none asked for: every scope of the client.
        const asked = (form.get('scope') ?? '').split(' ').filter(Boolean);
        const scopes = asked.length ? config.scopes.filter((s) => asked.includes(s) || asked.includes(tokenScope(app, s))) : [...config.scopes];
        const notAllowed = asked.filter((a) => !config.scopes.some((s) => a === s || a === tokenScope(app, s)));
        if (notAllowed.length) return reply.code(400).send({ error: 'invalid_scope', error_description: `app client "${clientName}" may not request ${notAllowed.join(', ')}; its scopes: ${config.scopes.join(', ')}` });
        const { token } = await issuer.mint({ scopes: scopes.map((s) => tokenScope(app, s)), clientId: localClientId(app, clientName), expiresIn: TOKEN_SECONDS });
        return { access_token: token, token_type: 'Bearer', expires_in: TOKEN_SECONDS };
      }
      return fail('unsupported_grant_type', `grant_type ${JSON.stringify(grantType ?? '')} is not supported: use authorization_code, refresh_token or client_credentials`);
    });

    server.get(DEV_OAUTH_PATHS.userInfo, async (request, reply) => {
      const refuse = (description: string) =>
        reply.code(401).header('www-authenticate', `Bearer error="invalid_token", error_description="${description.replace(/"/g, "'")}"`).send({ error: 'invalid_token', error_description: description });
      const bearer = /^Bearer\s+(\S+)$/i.exec(request.headers.authorization ?? '');
      if (!bearer) return refuse('send the access token as Authorization: Bearer <token>');
      let claims: Record<string, string>;
      let scopes: string[];
      try {
        ({ claims, scopes } = await issuer.verify(bearer[1]!));
      } catch (error) {
        if (error instanceof TokenRejected) return refuse(error.message);
        throw error;
      }
      if (claims.token_use !== 'access') return refuse('userInfo takes an access token, not an ID token');
      if (!scopes.includes('openid')) return refuse('the access token lacks the openid scope (ask for scope=openid when signing in)');
      const user = users.bySub(claims.sub ?? '');
      if (!user) return refuse('the token\'s user does not exist in this dev issuer');
      return { sub: user.sub, username: user.username, ...(user.email ? { email: user.email, email_verified: 'true' } : {}) };
    });

    server.get(DEV_OAUTH_PATHS.logout, async (request, reply) => {
      const app = currentApp();
      const query = parametersOf((request.raw.url ?? '').split('?')[1] ?? '');
      const client = clientById(app, query.get('client_id'));
      if (!client) return errorPage(reply, 400, 'invalid_request', `client_id ${JSON.stringify(query.get('client_id') ?? '')} is not an app client of this app`);
      const logoutUri = query.get('logout_uri');
      // No session cookie is kept (every authorize shows the login page), so signing out is only the redirect.
      if (logoutUri === undefined || !(client[1].logoutUrls ?? []).includes(logoutUri)) {
        return errorPage(reply, 400, 'invalid_request', `logout_uri ${JSON.stringify(logoutUri ?? '')} is not one of app client "${client[0]}"'s logoutUrls (${(client[1].logoutUrls ?? []).join(', ') || 'none'}); add it in config/security.ts`);
      }
      return reply.redirect(logoutUri, 302);
    });
  };
}
