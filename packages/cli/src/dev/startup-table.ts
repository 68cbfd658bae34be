import { DEV_OAUTH_PATHS, DEV_PATH_ROOT, DEV_PATHS, localAppClientId, type AppDefinition } from '@framework/core';

function table(rows: readonly (readonly string[])[]): string[] {
  const widths: number[] = [];
  for (const row of rows) row.forEach((cell, i) => (widths[i] = Math.max(widths[i] ?? 0, cell.length)));
  return rows.map((row) => `  ${row.map((cell, i) => (i === row.length - 1 ? cell : cell.padEnd(widths[i]!))).join('  ')}`.trimEnd());
}

/**
 * What `fw dev` prints once it serves: the URL, routes (method, path, scopes), functions, queues, crons, engines,
 * how to get a token, and who can sign in on the login page.
 */
export function startupTable(app: AppDefinition, url: string, scopes: ReadonlyMap<string, readonly string[] | undefined>, engines: readonly string[]): string {
  const lines: string[] = ['', `fw dev: ${app.project} (stage ${app.stage}) at ${url}`, ''];
  lines.push('Routes');
  lines.push(
    ...table([
      ['METHOD', 'PATH', 'SCOPES', 'FILE'],
      ...[...app.routes].sort((a, b) => a.path.localeCompare(b.path) || a.method.localeCompare(b.method)).map((r) => {
        const s = scopes.get(r.functionName);
        return [r.method, r.path, s === undefined ? '(failed to load)' : s.length ? s.join(' ') : 'public', r.file];
      }),
    ]),
  );
  if (app.functions.length) {
    lines.push('', `Functions (POST ${DEV_PATHS.invoke}/<id>)`);
    lines.push(...table(app.functions.map((f) => [f.id, f.functionName, `${f.timeout} s`])));
  }
  if (app.queues.length) {
    lines.push('', `Queues (POST ${DEV_PATHS.queues}/<id>/messages, POST ${DEV_PATHS.invokeQueue}/<id>)`);
    lines.push(...table(app.queues.map((q) => [q.id, q.queueName, `batch ${q.batchSize}`, `visibility ${q.visibilityTimeout} s`, `max receives ${q.maxReceiveCount}`])));
  }
  if (app.crons.length) {
    lines.push('', `Crons (UTC; POST ${DEV_PATHS.invokeCron}/<id>)`);
    lines.push(...table(app.crons.map((c) => [c.id, c.expression, c.enabled ? '' : 'disabled'])));
  }
  if (engines.length) {
    lines.push('', 'Engines');
    lines.push(...engines.map((e) => `  ${e}`));
  }
  const declared = Object.keys(app.config.security.scopes);
  // The subject of the token shown: a seeded user of the stage who belongs to a tenant, when there is one (their token
  // carries the tenant, as their login would), so a multi-tenant app's routes answer it; a made-up subject has no
  // tenant (400 TENANT_REQUIRED from the tenancy middleware).
  const subject = (app.config.auth?.users ?? []).find((u) => u.tenant !== undefined)?.username ?? 'user-1';
  lines.push('', 'Token (for scoped routes)');
  lines.push(`  curl -s -X POST ${url}${DEV_PATHS.token} -H 'content-type: application/json' -d '${JSON.stringify({ scopes: declared, sub: subject })}'`);
  lines.push(`  curl -H "Authorization: Bearer <access_token>" ${url}${app.routes.find((r) => (scopes.get(r.functionName) ?? []).length && r.pathParams.length === 0)?.path ?? '/'}`);
  // Who can sign in on the login page, and with which client: the seeded users (never their passwords) and the
  // clients a front end can send to /oauth2/authorize.
  const users = app.config.auth?.users ?? [];
  const loginClients = Object.entries(app.config.security.appClients ?? {}).filter(([, c]) => c.flows.includes('authorization_code') && (c.callbackUrls ?? []).length > 0);
  const selfSignUp = app.auth?.selfSignUp === true;
  if ((users.length || selfSignUp) && loginClients.length) {
    lines.push('', `Sign in (login page at ${DEV_OAUTH_PATHS.authorize}, PKCE; discovery ${url}${DEV_OAUTH_PATHS.openidConfiguration})`);
    lines.push(...table(loginClients.map(([name, c]) => [`client ${name}`, localAppClientId(app.project, app.stage, name), (c.callbackUrls ?? []).join(' ')])));
    lines.push(...table(users.map((u) => [`user ${u.username}`, (u.roles ?? []).join(' ') || '(no roles)'])));
    // Self sign-up: the login page's form; the code that confirms the account is printed here.
    if (selfSignUp) lines.push('  sign-up: open on the login page (the verification code of each new account is printed here)');
  }
  lines.push('', `Dev console: ${url}${DEV_PATH_ROOT} (routes, requests with their logs, queues, crons, functions, data, storage, auth, errors)`);
  lines.push(`API reference: ${url}${DEV_PATHS.docs} (OpenAPI 3.1: ${url}${DEV_PATHS.openapi})`);
  lines.push('', `Dev endpoints: GET ${url}${DEV_PATHS.functions}, JWKS ${url}/.well-known/jwks.json`, '');
  return `${lines.join('\n')}\n`;
}
