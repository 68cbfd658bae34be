import { DEV_OAUTH_PATHS, DEV_PATHS, localAppClientId, TENANT_ID_PATTERN, type AppDefinition } from '@framework/core';
import type { FastifyPluginAsync } from 'fastify';
import type { DevGatewayErrorCode } from '../server/gateway-error-codes.js';
import { sendError } from '../server/send-response.js';
import type { LocalIssuer } from './local-issuer.js';
import { isMachineClient } from './machine-client.js';
import { roleTokenRequest } from './role-token-request.js';

export { isMachineClient };

/**
 * The scopes of a token request that names none (`curl -X POST .../_dev/token` with no body): every declared scope
 * the client may request (the named client, else the first that may request them all, else the first client).
 */
function defaultScopes(app: AppDefinition, requestedClient: unknown): string[] {
  const declared = Object.keys(app.config.security.scopes);
  const clients = app.config.security.appClients ?? {};
  const named = typeof requestedClient === 'string' && Object.hasOwn(clients, requestedClient) ? requestedClient : undefined;
  const client = named ?? pickClient(app, declared, false) ?? Object.keys(clients)[0];
  return client === undefined ? declared : declared.filter((s) => clients[client]!.scopes.includes(s));
}

/**
 * The app client a token is minted for when none is named: the first whose scopes cover the request, a user client
 * when a user (`sub`) is named, else preferring user clients.
 */
function pickClient(app: AppDefinition, scopes: readonly string[], user: boolean): string | undefined {
  const covering = Object.entries(app.config.security.appClients ?? {}).filter(([, c]) => scopes.every((s) => c.scopes.includes(s)));
  const forUsers = covering.find(([, c]) => !isMachineClient(c));
  return (forUsers ?? (user ? undefined : covering[0]))?.[0];
}

/** The id of an app client locally (core's `localAppClientId`: shaped as Cognito's); `local` stands for "no clients". */
export function localClientId(app: AppDefinition, clientName: string): string {
  return localAppClientId(app.project, app.stage, clientName);
}

/** The audiences the local issuer accepts, as deployed: the app clients' ids (one for `local` when there are none). */
export function localAudiences(app: AppDefinition): string[] {
  const names = Object.keys(app.config.security.appClients ?? {});
  return (names.length ? names : ['local']).map((name) => localClientId(app, name));
}

/**
 * The resource server identifier the scopes of a token are prefixed with: the project, as the deployed stack names it
 * by default (`FW_AUTH_RESOURCE_SERVER` carries the same value), so `tasks-api/tasks:read` means the same in both.
 */
export function localResourceServer(app: AppDefinition): string {
  return app.project;
}

/**
 * A scope as a token carries it: prefixed with the resource server when the app has the auth intent (Cognito's custom
 * scopes); bare without it, as no function then knows a resource server (`FW_AUTH_RESOURCE_SERVER` is not set).
 */
export function tokenScope(app: AppDefinition, scope: string): string {
  return app.auth ? `${localResourceServer(app)}/${scope}` : scope;
}

/**
 * The local identity provider's routes:
 *
 * | route | answer |
 * |---|---|
 * | `GET /.well-known/jwks.json` | 200 the JWKS (one RS256 key) |
 * | `GET /.well-known/openid-configuration` | 200 Cognito's discovery document (`issuer`, `jwks_uri`, the `oauthPlugin` endpoints, ...) |
 * | `POST /_dev/token` `{ scopes?: string[] \| "a b", sub?, client?, groups?, roles?, tenant?, expiresIn? }` | 200 `{ access_token, token_type, expires_in, scope, client, client_id, sub, tenant? }`; 400 `UNKNOWN_SCOPE` / `UNKNOWN_CLIENT` / `UNKNOWN_ROLE` / `SCOPE_NOT_ALLOWED` / `INVALID_TOKEN_REQUEST` |
 *
 * Scopes must be declared in `config/security.ts`; with a client named, they must also be among that client's scopes.
 * Tokens are Cognito-shaped: scopes prefixed with the resource server (`tasks-api/tasks:read`), `client_id` the
 * client's local id, `cognito:groups` from `groups`. A client whose only flow is `client_credentials` gets a machine
 * token (`sub` = client id, no `username`; a `sub` is refused); any other client a user token (`sub` default
 * `local-user`).
 */
export function issuerPlugin(issuer: LocalIssuer, currentApp: () => AppDefinition): FastifyPluginAsync {
  return async (server) => {
    server.get('/.well-known/jwks.json', async () => issuer.jwks());
    // Cognito's discovery document, with the endpoints of `oauthPlugin`.
    server.get(DEV_OAUTH_PATHS.openidConfiguration, async () => ({
      issuer: issuer.issuer,
      jwks_uri: `${issuer.issuer}${DEV_OAUTH_PATHS.jwks}`,
      authorization_endpoint: `${issuer.issuer}${DEV_OAUTH_PATHS.authorize}`,
      token_endpoint: `${issuer.issuer}${DEV_OAUTH_PATHS.token}`,
      userinfo_endpoint: `${issuer.issuer}${DEV_OAUTH_PATHS.userInfo}`,
      end_session_endpoint: `${issuer.issuer}${DEV_OAUTH_PATHS.logout}`,
      scopes_supported: ['openid', 'email', 'profile', ...Object.keys(currentApp().config.security.scopes).map((s) => tokenScope(currentApp(), s))],
      response_types_supported: ['code'],
      grant_types_supported: ['authorization_code', 'refresh_token', 'client_credentials'],
      code_challenge_methods_supported: ['S256'],
      subject_types_supported: ['public'],
      token_endpoint_auth_methods_supported: ['none', 'client_secret_basic', 'client_secret_post'],
      id_token_signing_alg_values_supported: ['RS256'],
    }));
    server.post(DEV_PATHS.token, async (request, reply) => {
      const fail = (code: DevGatewayErrorCode, message: string) => sendError(reply, 400, code, message);
      let input: { scopes?: unknown; sub?: unknown; client?: unknown; groups?: unknown; roles?: unknown; expiresIn?: unknown; tenant?: unknown };
      try {
        const text = (request.body as Buffer | undefined)?.toString('utf8') ?? '';
        input = (text ? JSON.parse(text) : {}) as typeof input;
      } catch {
        return fail('INVALID_JSON', 'the request body is not JSON; send { "scopes": ["tasks:read"], "sub": "user-1" }');
      }
      const app = currentApp();
      if (input.roles !== undefined) {
        const forRoles = roleTokenRequest(app, { roles: input.roles, client: input.client, scopes: input.scopes, groups: input.groups });
        if (!forRoles.ok) return fail(forRoles.code, forRoles.message);
        input = { ...input, scopes: forRoles.scopes, client: forRoles.client, groups: forRoles.groups };
      }
      const declared = app.config.security.scopes;
      const clients = app.config.security.appClients ?? {};
      const scopes = typeof input.scopes === 'string' ? input.scopes.split(' ').filter(Boolean) : input.scopes ?? defaultScopes(app, input.client);
      if (!Array.isArray(scopes) || !scopes.every((s): s is string => typeof s === 'string')) return fail('INVALID_TOKEN_REQUEST', 'expected "scopes" to be an array of scope names (or a space-separated string)');
      if (input.sub !== undefined && (typeof input.sub !== 'string' || !input.sub)) return fail('INVALID_TOKEN_REQUEST', 'expected "sub" to be a non-empty string (the user id)');
      // The tenant claim a signed-in user of a multi-tenant app carries (Cognito: the `custom:tenant_id` attribute).
      if (input.tenant !== undefined && (typeof input.tenant !== 'string' || !TENANT_ID_PATTERN.test(input.tenant))) {
        return fail('INVALID_TOKEN_REQUEST', 'expected "tenant" to be a tenant id: 1 to 64 letters, digits, "-" or "_", starting with a letter or digit');
      }
      const expiresIn = input.expiresIn ?? 3600;
      if (typeof expiresIn !== 'number' || !Number.isInteger(expiresIn) || expiresIn < 1 || expiresIn > 86400) return fail('INVALID_TOKEN_REQUEST', 'expected "expiresIn" to be whole seconds between 1 and 86400');
      // Own names only: a requested scope or client named `constructor` or `__proto__` is not declared.
      const undeclared = scopes.filter((s) => !Object.hasOwn(declared, s));
      if (undeclared.length) {
        return fail('UNKNOWN_SCOPE', `scope${undeclared.length > 1 ? 's' : ''} ${undeclared.map((s) => JSON.stringify(s)).join(', ')} not declared in config/security.ts; declared: ${Object.keys(declared).join(', ') || '(none)'}`);
      }
      if (input.groups !== undefined && (!Array.isArray(input.groups) || !input.groups.every((g): g is string => typeof g === 'string' && g !== ''))) return fail('INVALID_TOKEN_REQUEST', 'expected "groups" to be an array of group names (the user\'s cognito:groups)');
      let client: string;
      if (input.client !== undefined) {
        if (typeof input.client !== 'string' || !Object.hasOwn(clients, input.client)) return fail('UNKNOWN_CLIENT', `app client ${JSON.stringify(input.client)} is not declared in config/security.ts; clients: ${Object.keys(clients).join(', ') || '(none)'}`);
        const notAllowed = scopes.filter((s) => !clients[input.client as string]!.scopes.includes(s));
        if (notAllowed.length) return fail('SCOPE_NOT_ALLOWED', `app client "${input.client}" may not request ${notAllowed.join(', ')}; its scopes: ${clients[input.client]!.scopes.join(', ')}`);
        client = input.client;
      } else if (Object.keys(clients).length) {
        const picked = pickClient(app, scopes, input.sub !== undefined);
        if (!picked) {
          const machineOnly = input.sub !== undefined ? pickClient(app, scopes, false) : undefined;
          if (machineOnly) {
            return fail('SCOPE_NOT_ALLOWED', `the app clients that may request ${scopes.join(', ')} (such as "${machineOnly}") use only client_credentials: their tokens belong to the client, not to a user. Leave out "sub" for a machine token, or give a client a user flow (for example "authorization_code" or "user_srp") in config/security.ts`);
          }
          return fail('SCOPE_NOT_ALLOWED', `no app client in config/security.ts may request all of ${scopes.join(', ')}${input.sub !== undefined ? ' for a user' : ''}; name one with "client"`);
        }
        client = picked;
      } else {
        client = 'local';
      }
      const machine = Object.hasOwn(clients, client) && isMachineClient(clients[client]!);
      if (machine && (input.sub !== undefined || input.groups !== undefined || input.tenant !== undefined)) return fail('INVALID_TOKEN_REQUEST', `app client "${client}" uses only client_credentials: its tokens are the client's own (sub = client id), with no user; leave out "sub", "groups" and "tenant"`);
      const clientId = localClientId(app, client);
      const tokenScopes = scopes.map((s) => tokenScope(app, s));
      // A seeded user of the stage (config/dev.ts) keeps their tenant when the request names none: a token for "mia"
      // is a token of mia's tenant, as her login would give.
      const seededTenant = machine || input.sub === undefined ? undefined : (app.config.auth?.users ?? []).find((u) => u.username === input.sub)?.tenant;
      const tenant = (input.tenant as string | undefined) ?? seededTenant;
      const { token } = await issuer.mint({ sub: machine ? undefined : (input.sub as string | undefined) ?? 'local-user', groups: input.groups as string[] | undefined, scopes: tokenScopes, clientId, expiresIn, ...(tenant !== undefined ? { tenant } : {}) });
      const sub = machine ? clientId : (input.sub as string | undefined) ?? 'local-user';
      return { access_token: token, token_type: 'Bearer', expires_in: expiresIn, scope: tokenScopes.join(' '), client, client_id: clientId, sub, ...(tenant !== undefined ? { tenant } : {}) };
    });
  };
}
