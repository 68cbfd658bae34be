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
  /** Shown above the form, not as an error (a password just changed). */
  readonly notice?: string;
  /** The target of the "Forgot your password?" button (a reset code by email, as the deployed pool sends). @default - no button */
  readonly forgotPassword?: string;
  /**
   * The security config's federated providers: listed, but not usable offline (signing in there needs the provider
   * and a deployed pool). @default []
   */
  readonly identityProviders?: ReadonlyArray<{ readonly name: string; readonly type: 'oidc' | 'saml' }>;
  /** The pool's MFA mode deployed: when not `off`, the page says it is not asked locally. @default 'off' */
  readonly mfa?: 'off' | 'optional' | 'required';
  /** With self sign-up (`infrastructure.auth.selfSignUp`): the sign-up form's target, and what it shows. @default - no sign-up */
  readonly signUp?: { readonly action: string; readonly email?: string; readonly error?: string; readonly passwordMinLength: number };
}

/** A field of a step page's form. */
export interface StepField {
  readonly name: string;
  readonly label: string;
  /** `code`: a six-digit code; `new-password`: a password of the pool's policy; `username`: an account's name. */
  readonly kind: 'code' | 'new-password' | 'username';
  readonly value?: string;
  /** The policy's length, for `new-password`. */
  readonly minLength?: number;
}

/**
 * A step of the managed login after the sign-in form (confirming a new account, asking for a password reset code,
 * choosing the new password): a heading, a line saying what happened, and one form posting back the sign-in's
 * transaction and CSRF token with the step's own fields.
 */
export interface StepPage {
  readonly appName: string;
  readonly heading: string;
  /** The line under the heading: text, and parts shown in bold (with an id). */
  readonly intro: ReadonlyArray<string | { readonly strong: string; readonly id: string }>;
  readonly error?: string;
  readonly form: {
    readonly id: string;
    readonly action: string;
    readonly transaction: string;
    readonly csrf: string;
    readonly hidden?: Readonly<Record<string, string>>;
    readonly fields: readonly StepField[];
    readonly button: string;
  };
}

/** Escapes text for HTML content and double-quoted attributes. */
function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
}

/** The doctype and `<head>` of the issuer's pages: `title` (escaped here) and their one inline style sheet. */
function pageHead(title: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>body{font-family:system-ui,sans-serif;max-width:22rem;margin:4rem auto;padding:0 1rem}label{display:block;margin:.75rem 0 .25rem}input{width:100%;padding:.4rem;box-sizing:border-box}button{margin-top:1rem;padding:.5rem 1rem}.error{color:#b00020}</style>
</head>
`;
}

/**
 * The dev issuer's login page: a server-rendered form with no script, so it works in any browser and under a strict
 * content security policy. Every value is escaped: the client name and username come from requests.
 */
export function renderLoginPage(page: LoginPage): string {
  const e = escapeHtml;
  return `${pageHead(`Sign in to ${page.appName} (fw dev)`)}<body>
<h1>Sign in</h1>
<p>to <strong>${e(page.appName)}</strong> (app client <code>${e(page.clientName)}</code>), on the local dev issuer.</p>
${page.notice ? `<p role="status" id="notice">${e(page.notice)}</p>\n` : ''}${page.error ? `<p class="error" role="alert" id="error">${e(page.error)}</p>\n` : ''}<form method="post" action="${e(page.action)}">
<input type="hidden" name="transaction" value="${e(page.transaction)}">
<input type="hidden" name="csrf" value="${e(page.csrf)}">
<label for="username">Username</label>
<input id="username" name="username" autocomplete="username" required value="${e(page.username ?? '')}">
<label for="password">Password</label>
<input id="password" name="password" type="password" autocomplete="current-password" required>
<button type="submit">Sign in</button>
</form>
${page.forgotPassword ? `<form method="post" action="${e(page.forgotPassword)}" id="forgot">\n<input type="hidden" name="transaction" value="${e(page.transaction)}">\n<input type="hidden" name="csrf" value="${e(page.csrf)}">\n<button type="submit">Forgot your password?</button>\n</form>\n` : ''}${page.signUp ? signUpForm(page, page.signUp) : ''}${page.mfa && page.mfa !== 'off' ? `<p id="mfa-note">Multi-factor authentication (${page.mfa} when deployed) is not asked on the local dev issuer.</p>\n` : ''}${providerList(page.identityProviders ?? [])}</body>
</html>
`;
}

/** The self sign-up form: an email address (the deployed pool's sign-in alias) and a password of the pool's policy. */
function signUpForm(page: LoginPage, signUp: NonNullable<LoginPage['signUp']>): string {
  const e = escapeHtml;
  return `<section aria-labelledby="sign-up-title">
<h2 id="sign-up-title">New here? Sign up</h2>
${signUp.error ? `<p class="error" role="alert" id="sign-up-error">${e(signUp.error)}</p>\n` : ''}<form method="post" action="${e(signUp.action)}" id="sign-up">
<input type="hidden" name="transaction" value="${e(page.transaction)}">
<input type="hidden" name="csrf" value="${e(page.csrf)}">
<label for="sign-up-email">Email</label>
<input id="sign-up-email" name="email" type="email" autocomplete="email" required value="${e(signUp.email ?? '')}">
<label for="sign-up-password">Password</label>
<input id="sign-up-password" name="password" type="password" autocomplete="new-password" required minlength="${signUp.passwordMinLength}" aria-describedby="sign-up-policy">
<p id="sign-up-policy">At least ${signUp.passwordMinLength} characters, with upper and lower case letters, a digit and a symbol.</p>
<button type="submit">Sign up</button>
</form>
</section>
`;
}

/** A step page (see `StepPage`); every value escaped. */
export function renderStepPage(page: StepPage): string {
  const e = escapeHtml;
  const intro = page.intro.map((part) => (typeof part === 'string' ? e(part) : `<strong id="${e(part.id)}">${e(part.strong)}</strong>`)).join('');
  const { form } = page;
  const hidden = Object.entries({ transaction: form.transaction, csrf: form.csrf, ...form.hidden }).map(([name, value]) => `<input type="hidden" name="${e(name)}" value="${e(value)}">\n`);
  const fields = form.fields.map((field) => {
    const id = `${form.id}-${field.name}`;
    const value = field.value !== undefined ? ` value="${e(field.value)}"` : '';
    const input =
      field.kind === 'code'
        ? `<input id="${id}" name="${e(field.name)}" inputmode="numeric" autocomplete="one-time-code" required pattern="[0-9]{6}"${value}>`
        : field.kind === 'new-password'
          ? `<input id="${id}" name="${e(field.name)}" type="password" autocomplete="new-password" required minlength="${field.minLength ?? 8}">`
          : `<input id="${id}" name="${e(field.name)}" autocomplete="username" required${value}>`;
    return `<label for="${id}">${e(field.label)}</label>\n${input}\n`;
  });
  return `${pageHead(`${page.heading} on ${page.appName} (fw dev)`)}<body>
<h1>${e(page.heading)}</h1>
<p>${intro}</p>
${page.error ? `<p class="error" role="alert" id="error">${e(page.error)}</p>\n` : ''}<form method="post" action="${e(form.action)}" id="${e(form.id)}">
${hidden.join('')}${fields.join('')}<button type="submit">${e(form.button)}</button>
</form>
</body>
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
