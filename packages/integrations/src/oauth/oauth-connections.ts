import { sql, type Queryable } from '@framework/data';
import { getRootLogger, queueClient, type Logger } from '@framework/runtime';
import * as oauth from 'oauth4webapi';
import { createHash, randomUUID } from 'node:crypto';
import { defaultEnvelopeKeyProvider } from '../crypto/default-key-provider.js';
import { EnvelopeCipher } from '../crypto/envelope-cipher.js';
import { ConnectionBrokenError, ConnectionNotFoundError, OAuthConfigError, OAuthProviderError, OAuthStateError } from '../errors.js';
import { providerError, resolveAuthorizationServer, type ResolvedAuthorizationServer } from './authorization-server.js';
import { OAUTH_PROVIDER_PRESETS, type OAuthProviderPreset, type OAuthProviderPresetName } from './provider-presets.js';

/** One provider the app connects accounts of. */
export interface OAuthProviderConfig {
  /** A built-in preset's name, or a preset of your own (data: endpoints, scopes, quirks). */
  readonly preset: OAuthProviderPresetName | OAuthProviderPreset;
  readonly clientId: string;
  /** Read it from a secret (`service.env`, Secrets Manager), never from code. */
  readonly clientSecret: string;
  /** The app's callback route, as registered with the provider. */
  readonly redirectUri: string;
  /** @default - the preset's `defaultScopes` */
  readonly scopes?: readonly string[];
}

/** Where a broken connection is announced: a queue id of the app (`service.queues[id]`), or anything with `send`. */
export type BrokenConnectionSink = string | { send(body: BrokenConnectionEvent): Promise<unknown> };

/** The event sent when a connection breaks. */
export interface BrokenConnectionEvent {
  readonly type: 'oauth.connection.broken';
  readonly connectionId: string;
  readonly owner: string;
  readonly provider: string;
  /** The provider's OAuth2 error code (`invalid_grant`). */
  readonly reason: string;
  /** ISO 8601. */
  readonly at: string;
}

export interface OAuthConnectionsOptions {
  /** The app's database (`service.db`) or a transaction: the tables of `OAUTH_CONNECTIONS_MIGRATION`. */
  readonly db: Pick<Queryable, 'query'>;
  /** The providers, by the name routes use. */
  readonly providers: Readonly<Record<string, OAuthProviderConfig>>;
  /** Where `oauth.connection.broken` events go. @default - nowhere (the connection is still marked broken) */
  readonly brokenEvents?: BrokenConnectionSink;
  /** The lifetime assumed when a provider sends no `expires_in` (GitHub OAuth apps). @default 3600 */
  readonly defaultExpiresInSeconds?: number;
  /** A token is refreshed when it expires within this. @default 300000 (5 minutes) */
  readonly refreshBeforeExpiryMs?: number;
  /** How long a started connect flow may take to come back. @default 600 (10 minutes) */
  readonly stateTtlSeconds?: number;
  /** Encrypts tokens and verifiers. @default - KMS deployed (`FW_INTEGRATIONS_KMS_KEY_ID`), `.fw/integrations/vault.key` locally */
  readonly cipher?: EnvelopeCipher;
  /** @default - the runtime's root logger */
  readonly logger?: Logger;
  /** The clock (epoch ms). @default Date.now */
  readonly now?: () => number;
}

/** A connection as the app sees it (tokens never leave through this shape). */
export interface OAuthConnection {
  readonly id: string;
  /** A user id or tenant id: whose account it is. */
  readonly owner: string;
  readonly provider: string;
  readonly status: 'active' | 'broken';
  readonly scopes: readonly string[];
  readonly expiresAt: Date | undefined;
  readonly createdAt: Date;
  readonly updatedAt: Date;
}

export interface StartConnectOptions {
  readonly provider: string;
  /** The signed-in user starting the flow: only they can complete it. */
  readonly userId: string;
  /** Whose connection it becomes. @default - `userId` */
  readonly owner?: string;
  /** @default - the provider's configured scopes */
  readonly scopes?: readonly string[];
}

export interface CompleteConnectOptions {
  /** The signed-in user the callback request comes from. */
  readonly userId: string;
  /** The callback's query string (`ctx.rawEvent.rawQueryString`) or its parameters. */
  readonly query: string | URLSearchParams | Readonly<Record<string, string>>;
}

export interface RefreshDueResult {
  readonly refreshed: number;
  readonly broken: number;
  readonly failed: number;
}

/** OAuth2 connections to customers' third-party accounts: connect (code + PKCE), tokens in the vault, refresh. */
export interface OAuthConnections {
  /** Starts a connect flow: stores state and PKCE verifier server-side and answers the provider URL to redirect to. */
  startConnect(options: StartConnectOptions): Promise<{ readonly url: string }>;
  /** Completes it on the callback route: the state must be known, unexpired, unused and the same user's. */
  completeConnect(options: CompleteConnectOptions): Promise<OAuthConnection>;
  /** A valid access token of the connection, refreshed first when it expires soon. */
  getAccessToken(connection: string | { readonly owner: string; readonly provider: string }): Promise<string>;
  /** Refreshes every active connection expiring within `withinMs` (call it from a cron). */
  refreshDue(options?: { readonly withinMs?: number; readonly limit?: number }): Promise<RefreshDueResult>;
  get(id: string): Promise<OAuthConnection | undefined>;
  list(owner: string): Promise<OAuthConnection[]>;
  /** Deletes the connection (and its tokens). */
  disconnect(id: string): Promise<void>;
}

interface ConnectionRow {
  readonly id: string;
  readonly owner: string;
  readonly provider: string;
  readonly status: 'active' | 'broken';
  readonly scopes: string;
  readonly access_token: string;
  readonly refresh_token: string | null;
  readonly expires_at: Date | string | null;
  readonly version: number;
  readonly created_at: Date | string;
  readonly updated_at: Date | string;
}

interface PendingRow {
  readonly user_id: string;
  readonly owner: string;
  readonly provider: string;
  readonly code_verifier: string;
  readonly redirect_uri: string;
  readonly scopes: string;
  readonly expires_at: Date | string;
}

interface Provider {
  readonly preset: OAuthProviderPreset;
  readonly config: OAuthProviderConfig;
  readonly server: ResolvedAuthorizationServer;
}

/** How long one container may hold a connection's refresh before another may take it over. */
const REFRESH_LEASE_MS = 30_000;
const LEASE_POLL_MS = 100;
const LEASE_POLLS = 50;

const asDate = (value: Date | string): Date => (value instanceof Date ? value : new Date(value));
const stateHash = (state: string): string => createHash('sha256').update(state).digest('base64url');

export function createOAuthConnections(options: OAuthConnectionsOptions): OAuthConnections {
  const providers = new Map<string, Provider>();
  for (const [name, config] of Object.entries(options.providers)) {
    const preset = typeof config.preset === 'string' ? (OAUTH_PROVIDER_PRESETS as Readonly<Record<string, OAuthProviderPreset>>)[config.preset] : config.preset;
    if (!preset) throw new OAuthConfigError(`provider "${name}" names the preset "${String(config.preset)}", which does not exist (presets: ${Object.keys(OAUTH_PROVIDER_PRESETS).join(', ')})`);
    try {
      new URL(config.redirectUri);
    } catch {
      throw new OAuthConfigError(`provider "${name}" has a redirectUri that is not an absolute URL: "${config.redirectUri}"`);
    }
    providers.set(name, { preset, config, server: resolveAuthorizationServer(name, preset, config) });
  }
  return new VaultConnections(options, providers);
}

class VaultConnections implements OAuthConnections {
  private readonly db: Pick<Queryable, 'query'>;
  private readonly now: () => number;
  private cipherValue: EnvelopeCipher | undefined;
  /** Refreshes in flight in this container, by connection id: concurrent callers share one. */
  private readonly refreshing = new Map<string, Promise<string>>();

  constructor(
    private readonly options: OAuthConnectionsOptions,
    private readonly providers: ReadonlyMap<string, Provider>,
  ) {
    this.db = options.db;
    this.now = options.now ?? Date.now;
    this.cipherValue = options.cipher;
  }

  private get cipher(): EnvelopeCipher {
    return (this.cipherValue ??= new EnvelopeCipher(defaultEnvelopeKeyProvider()));
  }

  private get logger(): Logger {
    return this.options.logger ?? getRootLogger();
  }

  private provider(name: string): Provider {
    const found = this.providers.get(name);
    if (!found) throw new OAuthConfigError(`no provider "${name}" is configured (configured: ${[...this.providers.keys()].join(', ') || 'none'})`);
    return found;
  }

  async startConnect(options: StartConnectOptions): Promise<{ url: string }> {
    const { preset, config, server } = this.provider(options.provider);
    if (!options.userId) throw new OAuthConfigError('startConnect needs the signed-in userId (the flow is bound to it)');
    if (!preset.authorizationEndpoint) throw new OAuthConfigError(`provider "${options.provider}" has no authorizationEndpoint`);
    const scopes = options.scopes ?? config.scopes ?? preset.defaultScopes;
    const state = oauth.generateRandomState();
    const verifier = oauth.generateRandomCodeVerifier();
    const hash = stateHash(state);
    const url = new URL(preset.authorizationEndpoint);
    url.searchParams.set('response_type', 'code');
    url.searchParams.set('client_id', server.client.client_id);
    url.searchParams.set('redirect_uri', config.redirectUri);
    url.searchParams.set('state', state);
    if (scopes.length) url.searchParams.set('scope', scopes.join(preset.scopeSeparator ?? ' '));
    if (preset.pkce !== false) {
      url.searchParams.set('code_challenge', await oauth.calculatePKCECodeChallenge(verifier));
      url.searchParams.set('code_challenge_method', 'S256');
    }
    for (const [name, value] of Object.entries(preset.authorizationParams ?? {})) url.searchParams.set(name, value);
    const expiresAt = new Date(this.now() + (this.options.stateTtlSeconds ?? 600) * 1000);
    const encryptedVerifier = await this.cipher.encrypt(verifier, `pending:${hash}`);
    await this.db.query(sql`DELETE FROM oauth_pending_authorizations WHERE expires_at < ${new Date(this.now())}`);
    await this.db.query(sql`INSERT INTO oauth_pending_authorizations (state_hash, user_id, owner, provider, code_verifier, redirect_uri, scopes, expires_at)
      VALUES (${hash}, ${options.userId}, ${options.owner ?? options.userId}, ${options.provider}, ${encryptedVerifier}, ${config.redirectUri}, ${scopes.join(' ')}, ${expiresAt})`);
    return { url: url.href };
  }

  async completeConnect(options: CompleteConnectOptions): Promise<OAuthConnection> {
    const params = options.query instanceof URLSearchParams ? options.query : new URLSearchParams(options.query as string | Record<string, string>);
    const state = params.get('state');
    if (!state) throw new OAuthStateError('the callback carries no state');
    const hash = stateHash(state);
    // Deleting is what makes a state single-use: a replayed callback finds nothing, even one racing this one.
    const { rows } = await this.db.query<PendingRow>(sql`DELETE FROM oauth_pending_authorizations WHERE state_hash = ${hash} RETURNING user_id, owner, provider, code_verifier, redirect_uri, scopes, expires_at`);
    const pending = rows[0];
    if (!pending) throw new OAuthStateError('the state is unknown or was already used');
    if (asDate(pending.expires_at).getTime() < this.now()) throw new OAuthStateError('the state has expired');
    if (pending.user_id !== options.userId) throw new OAuthStateError('the flow was started by another user');
    const { preset, server } = this.provider(pending.provider);
    let tokens: oauth.TokenEndpointResponse;
    try {
      const callback = oauth.validateAuthResponse(server.as, server.client, params, state);
      const verifier = await this.cipher.decrypt(pending.code_verifier, `pending:${hash}`);
      const response = await oauth.authorizationCodeGrantRequest(server.as, server.client, server.clientAuth, callback, pending.redirect_uri, preset.pkce === false ? oauth.nopkce : verifier, server.requestOptions);
      tokens = await oauth.processAuthorizationCodeResponse(server.as, server.client, response);
    } catch (error) {
      throw providerError(pending.provider, error);
    }
    const id = randomUUID();
    const row = await this.upsert(id, pending.owner, pending.provider, tokens, tokens.scope ?? pending.scopes);
    this.logger.info('oauth connection connected', { connectionId: row.id, provider: row.provider });
    return toConnection(row);
  }

  async getAccessToken(connection: string | { readonly owner: string; readonly provider: string }): Promise<string> {
    const row = typeof connection === 'string'
      ? (await this.db.query<ConnectionRow>(sql`SELECT * FROM oauth_connections WHERE id = ${connection}`)).rows[0]
      : (await this.db.query<ConnectionRow>(sql`SELECT * FROM oauth_connections WHERE owner = ${connection.owner} AND provider = ${connection.provider}`)).rows[0];
    if (!row) throw new ConnectionNotFoundError(typeof connection === 'string' ? `with id ${connection}` : `of ${connection.owner} to "${connection.provider}"`);
    if (row.status === 'broken') throw new ConnectionBrokenError(row.id, row.provider);
    if (!this.isDue(row, this.options.refreshBeforeExpiryMs ?? 300_000)) return this.cipher.decrypt(row.access_token, `access:${row.id}`);
    return this.refresh(row);
  }

  async refreshDue(options: { readonly withinMs?: number; readonly limit?: number } = {}): Promise<RefreshDueResult> {
    const horizon = new Date(this.now() + (options.withinMs ?? 15 * 60_000));
    const { rows } = await this.db.query<ConnectionRow>(
      sql`SELECT * FROM oauth_connections WHERE status = 'active' AND refresh_token IS NOT NULL AND expires_at IS NOT NULL AND expires_at < ${horizon} ORDER BY expires_at LIMIT ${options.limit ?? 100}`,
    );
    let refreshed = 0;
    let broken = 0;
    let failed = 0;
    for (const row of rows) {
      try {
        await this.refresh(row);
        refreshed++;
      } catch (error) {
        if (error instanceof ConnectionBrokenError) broken++;
        else {
          failed++;
          this.logger.warn('oauth connection refresh failed; retried on the next run', { connectionId: row.id, provider: row.provider, error });
        }
      }
    }
    return { refreshed, broken, failed };
  }

  async get(id: string): Promise<OAuthConnection | undefined> {
    const row = (await this.db.query<ConnectionRow>(sql`SELECT * FROM oauth_connections WHERE id = ${id}`)).rows[0];
    return row ? toConnection(row) : undefined;
  }

  async list(owner: string): Promise<OAuthConnection[]> {
    const { rows } = await this.db.query<ConnectionRow>(sql`SELECT * FROM oauth_connections WHERE owner = ${owner} ORDER BY provider`);
    return rows.map(toConnection);
  }

  async disconnect(id: string): Promise<void> {
    await this.db.query(sql`DELETE FROM oauth_connections WHERE id = ${id}`);
  }

  private isDue(row: ConnectionRow, withinMs: number): boolean {
    return row.expires_at !== null && asDate(row.expires_at).getTime() - withinMs <= this.now();
  }

  private refresh(row: ConnectionRow): Promise<string> {
    let pending = this.refreshing.get(row.id);
    if (!pending) {
      pending = this.refreshNow(row).finally(() => this.refreshing.delete(row.id));
      this.refreshing.set(row.id, pending);
    }
    return pending;
  }

  private async refreshNow(row: ConnectionRow): Promise<string> {
    if (!row.refresh_token) {
      // Nothing to refresh with: the token is used until the provider refuses it (the app reconnects then).
      return this.cipher.decrypt(row.access_token, `access:${row.id}`);
    }
    const { server } = this.provider(row.provider);
    // One refresher per connection across containers: a refresh token may be single-use (rotation), and the loser of
    // a race would otherwise see invalid_grant and break a healthy connection.
    const leased = await this.db.query(sql`UPDATE oauth_connections SET refresh_lease_until = ${new Date(this.now() + REFRESH_LEASE_MS)}
      WHERE id = ${row.id} AND version = ${row.version} AND status = 'active' AND (refresh_lease_until IS NULL OR refresh_lease_until < ${new Date(this.now())})`);
    if (leased.rowCount === 0) return this.awaitOtherRefresh(row);
    const refreshToken = await this.cipher.decrypt(row.refresh_token, `refresh:${row.id}`);
    let tokens: oauth.TokenEndpointResponse;
    try {
      const response = await oauth.refreshTokenGrantRequest(server.as, server.client, server.clientAuth, refreshToken, server.requestOptions);
      tokens = await oauth.processRefreshTokenResponse(server.as, server.client, response);
    } catch (error) {
      const mapped = providerError(row.provider, error);
      if (mapped.error !== 'invalid_grant') {
        await this.db.query(sql`UPDATE oauth_connections SET refresh_lease_until = NULL WHERE id = ${row.id} AND version = ${row.version}`);
        throw mapped;
      }
      // Another container may have refreshed (and rotated the refresh token) first: only an unchanged row is broken.
      const current = (await this.db.query<ConnectionRow>(sql`SELECT * FROM oauth_connections WHERE id = ${row.id}`)).rows[0];
      if (current && current.version !== row.version && current.status === 'active') return this.cipher.decrypt(current.access_token, `access:${current.id}`);
      await this.markBroken(row, mapped);
      throw new ConnectionBrokenError(row.id, row.provider);
    }
    const access = await this.cipher.encrypt(tokens.access_token, `access:${row.id}`);
    const refresh = tokens.refresh_token ? await this.cipher.encrypt(tokens.refresh_token, `refresh:${row.id}`) : row.refresh_token;
    const expiresAt = this.expiresAt(tokens);
    const { rowCount } = await this.db.query(sql`UPDATE oauth_connections SET access_token = ${access}, refresh_token = ${refresh}, expires_at = ${expiresAt},
      version = version + 1, refresh_lease_until = NULL, updated_at = ${new Date(this.now())} WHERE id = ${row.id} AND version = ${row.version}`);
    if (rowCount === 0) this.logger.warn('oauth connection changed during its refresh; the newer tokens were kept', { connectionId: row.id });
    return tokens.access_token;
  }

  /** Another container holds the refresh lease: wait for its new tokens (a few seconds at most). */
  private async awaitOtherRefresh(row: ConnectionRow): Promise<string> {
    for (let i = 0; i < LEASE_POLLS; i++) {
      const current = (await this.db.query<ConnectionRow>(sql`SELECT * FROM oauth_connections WHERE id = ${row.id}`)).rows[0];
      if (!current) throw new ConnectionNotFoundError(`with id ${row.id}`);
      if (current.status === 'broken') throw new ConnectionBrokenError(current.id, current.provider);
      if (current.version !== row.version) return this.cipher.decrypt(current.access_token, `access:${current.id}`);
      await new Promise((resolve) => setTimeout(resolve, LEASE_POLL_MS));
    }
    // The other refresh is slow or died with its lease: the current token still serves while it has not expired.
    if (row.expires_at !== null && asDate(row.expires_at).getTime() > this.now()) return this.cipher.decrypt(row.access_token, `access:${row.id}`);
    throw new OAuthProviderError(row.provider, 'temporarily_unavailable', 'another container is refreshing this connection and has not finished; retry shortly');
  }

  private async markBroken(row: ConnectionRow, error: OAuthProviderError): Promise<void> {
    await this.db.query(sql`UPDATE oauth_connections SET status = 'broken', broken_reason = ${error.error ?? 'unknown'}, version = version + 1, refresh_lease_until = NULL, updated_at = ${new Date(this.now())} WHERE id = ${row.id}`);
    this.logger.warn('oauth connection broken: its refresh token was refused', { connectionId: row.id, provider: row.provider, reason: error.error });
    const sink = this.options.brokenEvents;
    if (!sink) return;
    const event: BrokenConnectionEvent = { type: 'oauth.connection.broken', connectionId: row.id, owner: row.owner, provider: row.provider, reason: error.error ?? 'unknown', at: new Date(this.now()).toISOString() };
    await (typeof sink === 'string' ? queueClient(sink) : sink).send(event);
  }

  private expiresAt(tokens: oauth.TokenEndpointResponse): Date {
    const lifetime = typeof tokens.expires_in === 'number' && tokens.expires_in > 0 ? tokens.expires_in : (this.options.defaultExpiresInSeconds ?? 3600);
    return new Date(this.now() + lifetime * 1000);
  }

  private async upsert(id: string, owner: string, provider: string, tokens: oauth.TokenEndpointResponse, scopes: string): Promise<ConnectionRow> {
    // One connection per owner and provider: connecting again replaces its tokens (and repairs a broken one). The row
    // id stays, so the ciphertexts are bound to the id the row keeps.
    const existing = (await this.db.query<{ id: string }>(sql`SELECT id FROM oauth_connections WHERE owner = ${owner} AND provider = ${provider}`)).rows[0];
    const rowId = existing?.id ?? id;
    const access = await this.cipher.encrypt(tokens.access_token, `access:${rowId}`);
    const refresh = tokens.refresh_token ? await this.cipher.encrypt(tokens.refresh_token, `refresh:${rowId}`) : null;
    const now = new Date(this.now());
    const { rows } = await this.db.query<ConnectionRow>(sql`INSERT INTO oauth_connections (id, owner, provider, status, scopes, access_token, refresh_token, expires_at, created_at, updated_at)
      VALUES (${rowId}, ${owner}, ${provider}, 'active', ${scopes}, ${access}, ${refresh}, ${this.expiresAt(tokens)}, ${now}, ${now})
      ON CONFLICT (owner, provider) DO UPDATE SET status = 'active', broken_reason = NULL, scopes = EXCLUDED.scopes, access_token = EXCLUDED.access_token,
        refresh_token = EXCLUDED.refresh_token, expires_at = EXCLUDED.expires_at, version = oauth_connections.version + 1, updated_at = EXCLUDED.updated_at
      RETURNING *`);
    return rows[0]!;
  }
}

function toConnection(row: ConnectionRow): OAuthConnection {
  return {
    id: row.id,
    owner: row.owner,
    provider: row.provider,
    status: row.status,
    scopes: row.scopes ? row.scopes.split(/[ ,]+/).filter(Boolean) : [],
    expiresAt: row.expires_at === null ? undefined : asDate(row.expires_at),
    createdAt: asDate(row.created_at),
    updatedAt: asDate(row.updated_at),
  };
}
