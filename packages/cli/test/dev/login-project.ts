import { smallProject } from './small-project.js';

/** The front end's callback and sign-out pages (never served: the tests read the redirect, or intercept it). */
export const CALLBACK_URL = 'http://localhost:5173/callback';
export const SIGNED_OUT_URL = 'http://localhost:5173/signed-out';

/** The seeded users of the login tests: a member (reads) and an admin (reads and writes). */
export const MEMBER = { username: 'mia', password: 'member-password-1' };
export const ADMIN = { username: 'ada', password: 'admin-password-1' };

const route = (scope: string) => `import { handler } from '@framework/runtime';\nexport const main = handler(async (_input, ctx) => ({ subject: ctx.auth?.subject ?? null }), { scopes: ['${scope}'] });\n`;

/**
 * An app shaped as the example's: roles `admin` and `member`, a web client with the authorization code flow, users
 * seeded in `envs.dev.auth.users`, `GET /items` for readers and `DELETE /items` for admins only; an OIDC and a SAML
 * provider and required MFA, which the deployed pool has and the local issuer only mentions.
 */
export function loginProject(): string {
  const security = `{
    scopes: { 'items:read': 'Read', 'items:write': 'Write' },
    appClients: {
      web: { scopes: ['items:read', 'items:write'], flows: ['authorization_code', 'refresh_token'], callbackUrls: ['${CALLBACK_URL}'], logoutUrls: ['${SIGNED_OUT_URL}'] },
      reporting: { scopes: ['items:read'], flows: ['client_credentials'] },
    },
    roles: { admin: { scopes: ['items:read', 'items:write'] }, member: { scopes: ['items:read'] } },
    identityProviders: {
      'google-oidc': { type: 'oidc', issuer: 'https://accounts.google.com', clientId: 'small.apps.googleusercontent.com', clientSecret: { secretName: 'small/google' } },
      okta: { type: 'saml', metadataUrl: 'https://small.okta.com/app/abc/sso/saml/metadata' },
    },
    mfa: { mode: 'required' },
  }`;
  const users = `[{ username: '${MEMBER.username}', password: '${MEMBER.password}', roles: ['member'], email: 'mia@example.com' }, { username: '${ADMIN.username}', password: '${ADMIN.password}', roles: ['admin'] }]`;
  return smallProject({
    'fw.config.ts': [
      `import { defineApp } from '@framework/core';`,
      `export default defineApp({ base: { name: 'small', region: 'eu-west-1' }, security: ${security}, envs: { dev: { preset: 'free', auth: { users: ${users} } } }, routesDir: 'src/routes', infrastructure: { auth: {} } });`,
      '',
    ].join('\n'),
    'src/routes/items/get.ts': route('items:read'),
    'src/routes/items/delete.ts': route('items:write'),
  });
}

/**
 * An app whose users sign themselves up (`selfSignUp`, a 10-character password policy), with roles and `everyUser`:
 * a user who just signed up is in no role and may read, as every signed-in user may. It sends notifications, so
 * `fw dev` runs the local inbox.
 */
export function signUpProject(): string {
  const security = `{
    scopes: { 'items:read': 'Read', 'items:write': 'Write' },
    appClients: { web: { scopes: ['items:read', 'items:write'], flows: ['authorization_code', 'refresh_token'], callbackUrls: ['${CALLBACK_URL}'] } },
    roles: { admin: { scopes: ['items:read', 'items:write'] } },
    everyUser: { scopes: ['items:read'] },
  }`;
  const route = `import { handler } from '@framework/runtime';\nexport const main = handler(async (_input, ctx) => ({ subject: ctx.auth.subject }), { scopes: ['items:read'] });\n`;
  return smallProject({
    'fw.config.ts': [
      `import { defineApp } from '@framework/core';`,
      `export default defineApp({ base: { name: 'small', region: 'eu-west-1' }, security: ${security}, envs: { dev: { preset: 'free' } }, routesDir: 'src/routes', infrastructure: { auth: { selfSignUp: true, passwordMinLength: 10 } } });`,
      '',
    ].join('\n'),
    'src/routes/items/get.ts': route,
    // The app sends notifications: fw dev runs the local inbox, where the verification email lands too.
    'src/notifications/README.md': 'templates live here\n',
  });
}

/**
 * The last verification code fw dev printed among the terminal's `lines` (undefined: none): of the account `who`
 * signed up as (`sign-up`), or of the user who asked for a password reset (`password-reset`).
 */
export function verificationCode(lines: readonly string[], who: string, purpose: 'sign-up' | 'password-reset' = 'sign-up'): string | undefined {
  const prefix = `${who} ${purpose === 'sign-up' ? 'signed up' : 'asked to reset their password'}: their verification code is `;
  for (const line of [...lines].reverse()) if (line.startsWith(prefix)) return line.slice(prefix.length, prefix.length + 6);
  return undefined;
}

/** A route (`POST`) that runs one service.auth call, as a handler of the app would: its result, or the error's class and code. */
export const ADMIN_ROUTE = `import { AuthError } from '@framework/auth';
import { handler } from '@framework/runtime';
export const main = handler(async (body, _ctx, service) => {
  const { action, args } = body as { action: string; args: unknown[] };
  try {
    const result = await (service.auth as unknown as Record<string, (...a: unknown[]) => Promise<unknown>>)[action]!(...args);
    return { result: result ?? null };
  } catch (error) {
    if (error instanceof AuthError) return { error: { name: error.name, code: error.code, message: error.message } };
    throw error;
  }
});
`;
