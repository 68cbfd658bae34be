import { IdentityProviderError, InvalidUserInputError, UnknownAppClientError } from '../errors.js';

/** Where and as whom an app client asks for client-credentials tokens. */
export interface TokenEndpoint {
  /** The OAuth 2.0 token endpoint (`https://<domain>/oauth2/token`, or fw dev's `/oauth2/token`). */
  readonly tokenUrl: string;
  readonly clientId: string;
  /** Sent with HTTP Basic; a public client (fw dev's) sends its id in the body. @default - none */
  readonly clientSecret?: string;
}

export interface MachineTokensOptions {
  /** The token endpoint and credentials of an app client, by its name in `config/security.ts`. */
  readonly resolve: (clientName: string) => Promise<TokenEndpoint>;
  /** Prefix of the app's custom scopes (`FW_AUTH_RESOURCE_SERVER`): `tasks:read` is asked for as `<prefix>/tasks:read`. @default - scopes sent as given */
  readonly resourceServer?: string;
  /** Milliseconds since the epoch (tests move it forward). @default Date.now */
  readonly now?: () => number;
  /** @default globalThis.fetch */
  readonly fetch?: typeof fetch;
}

interface CachedToken {
  readonly token: string;
  readonly expiresAt: number;
  /** From here on the next caller gets a new token (the old one still works meanwhile, should the renewal fail). */
  readonly renewAt: number;
}

interface Slot {
  cached?: CachedToken;
  pending?: Promise<CachedToken>;
}

/** A token is renewed this long before it expires, or a tenth of its lifetime when that is shorter. */
export const RENEW_BEFORE_EXPIRY_MS = 60_000;

/**
 * Client-credentials tokens by app client and scopes: one token endpoint request per token lifetime. Concurrent
 * callers share one request; from `renewAt` on the first caller renews, and one that finds the renewal failing while the
 * old token is still valid gets the old token (the next call tries again).
 */
export class MachineTokens {
  private readonly slots = new Map<string, Slot>();
  private readonly now: () => number;
  private readonly fetch: typeof fetch;

  constructor(private readonly options: MachineTokensOptions) {
    this.now = options.now ?? Date.now;
    this.fetch = options.fetch ?? ((...args) => globalThis.fetch(...args));
  }

  async token(clientName: string, scopes?: readonly string[]): Promise<string> {
    if (typeof clientName !== 'string' || clientName === '') throw new InvalidUserInputError('machineToken needs the name of an app client of config/security.ts');
    if (scopes !== undefined && (!Array.isArray(scopes) || !scopes.every((s) => typeof s === 'string' && s !== ''))) throw new InvalidUserInputError('expected scopes to be a list of scope names');
    const asked = scopes === undefined ? [] : [...new Set(scopes.map((s) => this.fullScope(s)))].sort();
    const key = `${clientName}\n${asked.join(' ')}`;
    let slot = this.slots.get(key);
    if (!slot) this.slots.set(key, (slot = {}));
    const now = this.now();
    if (slot.cached && now < slot.cached.renewAt) return slot.cached.token;
    if (!slot.pending) {
      const request = this.request(clientName, asked);
      slot.pending = request;
      request.then(
        (fresh) => {
          slot.cached = fresh;
          slot.pending = undefined;
        },
        () => {
          slot.pending = undefined;
        },
      );
    }
    try {
      return (await slot.pending).token;
    } catch (error) {
      const previous = slot.cached;
      if (previous && this.now() < previous.expiresAt) return previous.token;
      throw error;
    }
  }

  /** A bare scope with the resource server's prefix, as Cognito expects custom scopes. */
  private fullScope(scope: string): string {
    return this.options.resourceServer && !scope.includes('/') ? `${this.options.resourceServer}/${scope}` : scope;
  }

  private async request(clientName: string, scopes: readonly string[]): Promise<CachedToken> {
    const endpoint = await this.options.resolve(clientName);
    const body = new URLSearchParams({ grant_type: 'client_credentials' });
    if (scopes.length) body.set('scope', scopes.join(' '));
    const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded', 'accept': 'application/json' };
    if (endpoint.clientSecret !== undefined) {
      headers.authorization = `Basic ${Buffer.from(`${encodeURIComponent(endpoint.clientId)}:${encodeURIComponent(endpoint.clientSecret)}`).toString('base64')}`;
    } else {
      body.set('client_id', endpoint.clientId);
    }
    const sentAt = this.now();
    let response: Response;
    try {
      response = await this.fetch(endpoint.tokenUrl, { method: 'POST', headers, body: body.toString() });
    } catch (error) {
      throw new IdentityProviderError('machineToken', `the token endpoint ${endpoint.tokenUrl} could not be reached (${(error as Error).message})`, { cause: error });
    }
    const text = await response.text();
    let answer: { access_token?: unknown; expires_in?: unknown; error?: unknown; error_description?: unknown } = {};
    try {
      answer = JSON.parse(text) as typeof answer;
    } catch {
      // Described below by the status.
    }
    if (!response.ok || typeof answer.access_token !== 'string') {
      const reason = `${String(answer.error ?? `HTTP ${response.status}`)}${answer.error_description ? `: ${String(answer.error_description)}` : ''}`;
      if (answer.error === 'invalid_client' || answer.error === 'unauthorized_client') throw new UnknownAppClientError(`app client "${clientName}" may not get client-credentials tokens (${reason})`);
      if (answer.error === 'invalid_scope') throw new InvalidUserInputError(`app client "${clientName}" may not request ${scopes.join(' ')} (${reason})`);
      throw new IdentityProviderError('machineToken', `the token endpoint answered ${reason}`);
    }
    const lifetimeMs = (typeof answer.expires_in === 'number' && answer.expires_in > 0 ? answer.expires_in : 3600) * 1000;
    // Counted from when the request was sent: the token's clock started no later than that.
    const expiresAt = sentAt + lifetimeMs;
    return { token: answer.access_token, expiresAt, renewAt: expiresAt - Math.min(RENEW_BEFORE_EXPIRY_MS, lifetimeMs / 10) };
  }
}
