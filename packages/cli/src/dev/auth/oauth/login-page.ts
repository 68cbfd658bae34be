/** What the login page shows and posts back. */
export interface LoginPage {
  /** The form's target (the login endpoint). */
  readonly action: string;
  readonly appName: string;
  readonly clientName: string;
  /** The login transaction's id and its CSRF token, posted back as hidden fields. */
  readonly transaction: string;
  readonly csrf: string;
  readonly username?: string;
  /** Shown above the form (a wrong password). */
  readonly error?: string;
  /**
   * The security config's federated providers: listed, but not usable offline (signing in there needs the provider
   * and a deployed pool). @default []
   */
  readonly identityProviders?: ReadonlyArray<{ readonly name: string; readonly type: 'oidc' | 'saml' }>;
  /** The pool's MFA mode deployed: when not `off`, the page says it is not asked locally. @default 'off' */
  readonly mfa?: 'off' | 'optional' | 'required';
}

/** Escapes text for HTML content and double-quoted attributes. */
function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
}

/**
 * The dev issuer's login page: a server-rendered form with no script, so it works in any browser and under a strict
 * content security policy. Every value is escaped: the client name and username come from requests.
 */
export function renderLoginPage(page: LoginPage): string {
  const e = escapeHtml;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Sign in to ${e(page.appName)} (fw dev)</title>
<style>body{font-family:system-ui,sans-serif;max-width:22rem;margin:4rem auto;padding:0 1rem}label{display:block;margin:.75rem 0 .25rem}input{width:100%;padding:.4rem;box-sizing:border-box}button{margin-top:1rem;padding:.5rem 1rem}.error{color:#b00020}</style>
</head>
<body>
<h1>Sign in</h1>
<p>to <strong>${e(page.appName)}</strong> (app client <code>${e(page.clientName)}</code>), on the local dev issuer.</p>
${page.error ? `<p class="error" role="alert" id="error">${e(page.error)}</p>\n` : ''}<form method="post" action="${e(page.action)}">
<input type="hidden" name="transaction" value="${e(page.transaction)}">
<input type="hidden" name="csrf" value="${e(page.csrf)}">
<label for="username">Username</label>
<input id="username" name="username" autocomplete="username" required value="${e(page.username ?? '')}">
<label for="password">Password</label>
<input id="password" name="password" type="password" autocomplete="current-password" required>
<button type="submit">Sign in</button>
</form>
${page.mfa && page.mfa !== 'off' ? `<p id="mfa-note">Multi-factor authentication (${page.mfa} when deployed) is not asked on the local dev issuer.</p>\n` : ''}${providerList(page.identityProviders ?? [])}</body>
</html>
`;
}

/** The federated providers as disabled buttons: the page shows what the deployed sign-in offers, without pretending. */
function providerList(providers: NonNullable<LoginPage['identityProviders']>): string {
  if (providers.length === 0) return '';
  const items = providers.map((p) => `<li><button type="button" disabled aria-describedby="providers-offline">Continue with ${escapeHtml(p.name)} (${p.type.toUpperCase()})</button></li>`).join('\n');
  return `<section aria-labelledby="providers-title">
<h2 id="providers-title">Other sign-in options</h2>
<p id="providers-offline">Not available offline: federated sign-in goes through the provider and the deployed user pool. Sign in with a seeded user here.</p>
<ul>
${items}
</ul>
</section>
`;
}

/** Headers of every page the issuer renders: no sniffing, no framing (clickjacking), no script, nothing cached. */
export const PAGE_HEADERS = {
  'content-type': 'text/html; charset=utf-8',
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'; base-uri 'none'",
  'cache-control': 'no-store',
  'referrer-policy': 'no-referrer',
} as const;
