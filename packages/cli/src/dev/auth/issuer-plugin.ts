import type { AppDefinition } from '@framework/core';
import type { FastifyPluginAsync } from 'fastify';
import type { LocalIssuer } from './local-issuer.js';

/** The app client a token is minted for when none is named: the first whose scopes cover the request. */
function pickClient(app: AppDefinition, scopes: readonly string[]): string | undefined {
  const clients = Object.entries(app.config.security.appClients ?? {});
  return clients.find(([, c]) => scopes.every((s) => c.scopes.includes(s)))?.[0];
}

/**
 * The scopes of a token request that names none (`curl -X POST .../_dev/token` with no body): every declared scope
 * the client may request (the named client, else the first that may request them all, else the first client).
 */
function defaultScopes(app: AppDefinition, requestedClient: unknown): string[] {
  const declared = Object.keys(app.config.security.scopes);
  const clients = app.config.security.appClients ?? {};
  const named = typeof requestedClient === 'string' && Object.hasOwn(clients, requestedClient) ? requestedClient : undefined;
  const client = named ?? pickClient(app, declared) ?? Object.keys(clients)[0];
  return client === undefined ? declared : declared.filter((s) => clients[client]!.scopes.includes(s));
}

/** The audiences the local issuer accepts: the app clients' names (`local` when there are none). */
export function localAudiences(app: AppDefinition): string[] {
  const names = Object.keys(app.config.security.appClients ?? {});
  return names.length ? names : ['local'];
}

/**
 * The local identity provider's routes:
 *
 * | route | answer |
 * |---|---|
 * | `GET /.well-known/jwks.json` | 200 the JWKS (one RS256 key) |
 * | `GET /.well-known/openid-configuration` | 200 `{ issuer, jwks_uri, token_endpoint, scopes_supported }` |
 * | `POST /_dev/token` `{ scopes?: string[] \| "a b", sub?, client?, expiresIn? }` | 200 `{ access_token, token_type, expires_in, scope, client, sub }`; 400 `UNKNOWN_SCOPE` / `UNKNOWN_CLIENT` / `SCOPE_NOT_ALLOWED` / `INVALID_TOKEN_REQUEST` |
 *
 * Scopes must be declared in `config/security.ts`; with a client named, they must also be among that client's scopes.
 */
export function issuerPlugin(issuer: LocalIssuer, currentApp: () => AppDefinition): FastifyPluginAsync {
  return async (server) => {
    server.get('/.well-known/jwks.json', async () => issuer.jwks());
    server.get('/.well-known/openid-configuration', async () => ({
      issuer: issuer.issuer,
      jwks_uri: `${issuer.issuer}/.well-known/jwks.json`,
      token_endpoint: `${issuer.issuer}/_dev/token`,
      scopes_supported: Object.keys(currentApp().config.security.scopes),
      id_token_signing_alg_values_supported: ['RS256'],
    }));
    server.post('/_dev/token', async (request, reply) => {
      const fail = (code: string, message: string) => reply.code(400).send({ error: { code, message, requestId: request.id } });
      let input: { scopes?: unknown; sub?: unknown; client?: unknown; expiresIn?: unknown };
      try {
        const text = (request.body as Buffer | undefined)?.toString('utf8') ?? '';
        input = (text ? JSON.parse(text) : {}) as typeof input;
      } catch {
        return fail('INVALID_JSON', 'the request body is not JSON; send { "scopes": ["tasks:read"], "sub": "user-1" }');
      }
      const app = currentApp();
      const declared = app.config.security.scopes;
      const clients = app.config.security.appClients ?? {};
      const scopes = typeof input.scopes === 'string' ? input.scopes.split(' ').filter(Boolean) : input.scopes ?? defaultScopes(app, input.client);
      if (!Array.isArray(scopes) || !scopes.every((s): s is string => typeof s === 'string')) return fail('INVALID_TOKEN_REQUEST', 'expected "scopes" to be an array of scope names (or a space-separated string)');
      if (input.sub !== undefined && (typeof input.sub !== 'string' || !input.sub)) return fail('INVALID_TOKEN_REQUEST', 'expected "sub" to be a non-empty string (the user id)');
      const expiresIn = input.expiresIn ?? 3600;
      if (typeof expiresIn !== 'number' || !Number.isInteger(expiresIn) || expiresIn < 1 || expiresIn > 86400) return fail('INVALID_TOKEN_REQUEST', 'expected "expiresIn" to be whole seconds between 1 and 86400');
      // Own names only: a requested scope or client named `constructor` or `__proto__` is not declared.
      const undeclared = scopes.filter((s) => !Object.hasOwn(declared, s));
      if (undeclared.length) {
        return fail('UNKNOWN_SCOPE', `scope${undeclared.length > 1 ? 's' : ''} ${undeclared.map((s) => JSON.stringify(s)).join(', ')} not declared in config/security.ts; declared: ${Object.keys(declared).join(', ') || '(none)'}`);
      }
      let client: string;
      if (input.client !== undefined) {
        if (typeof input.client !== 'string' || !Object.hasOwn(clients, input.client)) return fail('UNKNOWN_CLIENT', `app client ${JSON.stringify(input.client)} is not declared in config/security.ts; clients: ${Object.keys(clients).join(', ') || '(none)'}`);
        const notAllowed = scopes.filter((s) => !clients[input.client as string]!.scopes.includes(s));
        if (notAllowed.length) return fail('SCOPE_NOT_ALLOWED', `app client "${input.client}" may not request ${notAllowed.join(', ')}; its scopes: ${clients[input.client]!.scopes.join(', ')}`);
        client = input.client;
      } else if (Object.keys(clients).length) {
        const picked = pickClient(app, scopes);
        if (!picked) return fail('SCOPE_NOT_ALLOWED', `no app client in config/security.ts may request all of ${scopes.join(', ')}; name one with "client"`);
        client = picked;
      } else {
        client = 'local';
      }
      const { token } = await issuer.mint({ sub: (input.sub as string | undefined) ?? 'local-user', scopes, client, expiresIn });
      const sub = (input.sub as string | undefined) ?? 'local-user';
      return { access_token: token, token_type: 'Bearer', expires_in: expiresIn, scope: scopes.join(' '), client, sub };
    });
  };
}
