import { TestingError } from '../errors.js';
import type { Identity } from './identity.js';

/** What a client's token is asked for: a user identity, or a machine client's own token. */
export type TokenRequest = { readonly user: Identity } | { readonly machine: string };

/** Mints access tokens for the clients of a test app. */
export interface TokenSource {
  token(request: TokenRequest): Promise<string>;
}

/** The local issuer of the dev server (`POST /_dev/token`): real RS256 tokens, checked as deployed. */
export function devIssuerTokens(baseUrl: string): TokenSource {
  return {
    async token(request) {
      const body = 'machine' in request ? { client: request.machine } : userTokenBody(request.user);
      const response = await fetch(new URL('/_dev/token', baseUrl), { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
      const text = await response.text();
      if (response.status !== 200) {
        let message = text;
        try {
          message = (JSON.parse(text) as { error?: { code?: string; message?: string } }).error?.message ?? text;
        } catch {
          // Not JSON: shown as it came.
        }
        const who = 'machine' in request ? `machine client "${request.machine}"` : `identity ${JSON.stringify(request.user)}`;
        throw new TestingError('FW_ERR_TESTING_TOKEN', `the local issuer refused a token for ${who}: ${message}`);
      }
      return (JSON.parse(text) as { access_token: string }).access_token;
    },
  };
}

function userTokenBody(identity: Identity): Record<string, unknown> {
  if (!identity.roles && !identity.scopes) {
    throw new TestingError('FW_ERR_TESTING_BAD_OPTION', 'app.as() needs roles or scopes, e.g. app.as({ roles: [\'member\'] }); use app.anonymous for calls without a token');
  }
  const body: Record<string, unknown> = { sub: identity.sub ?? 'local-user' };
  if (identity.roles) body.roles = identity.roles;
  if (identity.scopes) body.scopes = identity.scopes;
  if (identity.client) body.client = identity.client;
  if (identity.tenant !== undefined) body.tenant = identity.tenant;
  return body;
}

/** A deployed stage's machine clients: id and secret per app client name, and the user pool domain's token URL. */
export interface DeployedMachineClients {
  /** `https://<domain>.auth.<region>.amazoncognito.com/oauth2/token`. */
  readonly tokenUrl: string;
  readonly clients: Readonly<Record<string, { readonly clientId: string; readonly clientSecret: string }>>;
}

/**
 * Tokens of a deployed stage: machine clients through the OAuth client-credentials grant at the user pool's token
 * endpoint. Users sign in with passwords a test does not have: `as()` says so.
 */
export function deployedTokens(machines: DeployedMachineClients | undefined): TokenSource {
  return {
    async token(request) {
      if (!('machine' in request)) {
        throw new TestingError('FW_ERR_TESTING_LOCAL_ONLY', 'app.as({ roles | scopes }) mints user tokens with the local issuer, which a deployed stage does not have: use app.asMachine(<client>) with startApp({ url, machineClients }), or run the test against startApp() locally');
      }
      const client = machines && Object.hasOwn(machines.clients, request.machine) ? machines.clients[request.machine]! : undefined;
      if (!machines || !client) {
        throw new TestingError('FW_ERR_TESTING_BAD_OPTION', `no credentials for machine client "${request.machine}": pass startApp({ url, machineClients: { tokenUrl, clients: { ${request.machine}: { clientId, clientSecret } } } })`);
      }
      const response = await fetch(machines.tokenUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: `Basic ${Buffer.from(`${client.clientId}:${client.clientSecret}`).toString('base64')}` },
        body: new URLSearchParams({ grant_type: 'client_credentials', client_id: client.clientId }).toString(),
      });
      const text = await response.text();
      if (response.status !== 200) throw new TestingError('FW_ERR_TESTING_TOKEN', `the token endpoint refused client credentials for "${request.machine}" (${response.status}): ${text}`);
      return (JSON.parse(text) as { access_token: string }).access_token;
    },
  };
}

/** A fetch that adds `Authorization: Bearer <token>`, the token minted on the first call and kept. */
export function authorizedFetch(mint: () => Promise<string>): typeof fetch {
  let token: Promise<string> | undefined;
  return async (input, init) => {
    token ??= mint();
    const headers = new Headers(init?.headers);
    headers.set('authorization', `Bearer ${await token}`);
    return fetch(input, { ...init, headers });
  };
}
