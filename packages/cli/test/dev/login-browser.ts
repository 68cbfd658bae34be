import * as oauth from 'oauth4webapi';
import type { Browser } from 'playwright-core';
import { CALLBACK_URL } from './login-project.js';

/**
 * Opens the dev issuer's login page in a fresh browser context, as a front end's sign-in link does (PKCE, a state,
 * `scope=openid`), the front end at the callback URL stood in for (the issuer redirects there). The caller closes the
 * page's context.
 */
export async function openLoginInBrowser(browser: Browser, as: oauth.AuthorizationServer, client: oauth.Client) {
  const verifier = oauth.generateRandomCodeVerifier();
  const state = oauth.generateRandomState();
  const url = new URL(as.authorization_endpoint!);
  for (const [name, value] of Object.entries({ client_id: client.client_id, redirect_uri: CALLBACK_URL, response_type: 'code', scope: 'openid', state, code_challenge: await oauth.calculatePKCECodeChallenge(verifier), code_challenge_method: 'S256' })) {
    url.searchParams.set(name, value);
  }
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.route(`${CALLBACK_URL}**`, (route) => route.fulfill({ status: 200, contentType: 'text/html', body: '<p>front end callback</p>' }));
  await page.goto(url.toString());
  return { page, verifier, state };
}
