import type { Queryable } from '@framework/data';
import { verifyAccessToken } from '@framework/auth';
import { ENV } from '@framework/core/names';
import { getRootLogger, getService, NotFound, registerAccessTokenVerifier, registerApiKeyRateLimitCheck, registerApiKeyVerifier, type ApiKeyIdentity } from '@framework/runtime';
import { ApiKeyRateLimited, IntegrationsError, InvalidApiKey, UnknownScope } from '../errors.js';
import { generateApiKey, parseApiKey, type ApiKeyKind } from './api-key-format.js';
import { hashApiKey, hashesEqual } from './api-key-hash.js';
import type { ApiKeyRateLimit, ApiKeyRecord, StoredApiKey } from './api-key-record.js';
import { ApiKeyStore } from './api-key-store.js';
import { KeyRateLimiter } from './key-rate-limiter.js';
import { LastUsedTracker } from './last-used-tracker.js';
import { loadPepper } from './pepper.js';
import { VerificationCache, type CacheStats } from './verification-cache.js';

export interface ApiKeysOptions {
  /** The scopes a key may hold: the app's declared scopes (`Object.keys(security.scopes)`). */
  readonly allowedScopes: readonly string[];
  /**
   * The database holding `fw_api_keys`.
   * @default - `service.db` (import `@framework/data` in the app)
   */
  readonly db?: () => Queryable;
  /**
   * The kind of the keys this stage issues and accepts.
   * @default - `live` on the stage `prod`, `test` on every other one
   */
  readonly kind?: ApiKeyKind;
  /**
   * The pepper the keys are hashed with.
   * @default - `FW_API_KEYS_PEPPER`, or `fw dev`'s own under `.fw/` (see `loadPepper`)
   */
  readonly pepper?: string;
  /**
   * How long a verified key's record is reused without reading the database: a revocation reaches other containers
   * within this time.
   * @default 10
   */
  readonly cacheTtlSeconds?: number;
  /**
   * At most one write of last-used times per interval.
   * @default 60
   */
  readonly lastUsedIntervalSeconds?: number;
  /**
   * The rate limit of keys issued without their own.
   * @default - none (unlimited)
   */
  readonly defaultRateLimit?: ApiKeyRateLimit;
  /**
   * Register as the verifier of routes with `auth: [..., 'apiKey']` in this container, together with
   * `@framework/auth`'s access-token verifier: deployed, those routes verify tokens in the function (see the README).
   * @default true
   */
  readonly registerVerifier?: boolean;
  /** @default Date.now */
  readonly now?: () => number;
}

export interface IssueApiKeyOptions {
  /** Who the key acts for (a user id, an organization id): `ctx.auth.subject` of its requests. */
  readonly owner: string;
  /**
   * The tenant the key acts for (the issuer's: `ctx.tenant.id`). Its requests carry it as the `custom:tenant_id`
   * claim, so `@framework-pro/tenancy` binds them to it: a key never chooses its tenant by header.
   * @default - none (an app without tenancy)
   */
  readonly tenant?: string;
  /** A label for the owner's list ("CI deploys"). */
  readonly name: string;
  /** Scopes the key grants: a subset of `allowedScopes`. */
  readonly scopes: readonly string[];
  /**
   * When the key stops working.
   * @default - never
   */
  readonly expiresAt?: Date;
  /**
   * At most this many requests per window.
   * @default - the `defaultRateLimit` option
   */
  readonly rateLimit?: ApiKeyRateLimit;
}

/** A verified key's identity and its rate limit, not yet counted (what the Lambda authorizer passes on). */
export interface AuthenticatedApiKey {
  readonly identity: ApiKeyIdentity;
  readonly rateLimit?: ApiKeyRateLimit;
}

/** A key as issued: `key` is shown to its owner once and never stored. */
export interface IssuedApiKey {
  readonly key: string;
  readonly record: ApiKeyRecord;
}

const MAX_CACHE_ENTRIES = 10_000;

/**
 * API keys for the app's own customers (`createApiKeys`): issue, list, revoke, rotate with overlap, and verify with
 * a cache, a per-key rate limit and batched last-used times.
 */
export class ApiKeys {
  readonly kind: ApiKeyKind;
  private readonly allowedScopes: ReadonlySet<string>;
  private readonly store: ApiKeyStore;
  private readonly cache: VerificationCache;
  private readonly limiter: KeyRateLimiter;
  private readonly lastUsed: LastUsedTracker;
  private readonly defaultRateLimit: ApiKeyRateLimit | undefined;
  private readonly now: () => number;
  private pepperValue: Promise<string> | undefined;
  /** Reads by prefix in flight. */
  private readonly reads = new Map<string, Promise<StoredApiKey | undefined>>();

  /** `verifyOnly`: a verifier that issues nothing (the Lambda authorizer), so it needs no allowed scopes. */
  constructor(private readonly options: ApiKeysOptions, verifyOnly = false) {
    if (options.allowedScopes.length === 0 && !verifyOnly) throw new IntegrationsError('FW_ERR_API_KEY_OPTIONS', 'createApiKeys needs allowedScopes: the scopes a key may hold (Object.keys(security.scopes))');
    if (options.defaultRateLimit) checkRateLimit(options.defaultRateLimit);
    this.allowedScopes = new Set(options.allowedScopes);
    this.kind = options.kind ?? (process.env[ENV.stage] === 'prod' ? 'live' : 'test');
    this.now = options.now ?? Date.now;
    this.store = new ApiKeyStore(options.db ?? (() => getService().db));
    this.cache = new VerificationCache((options.cacheTtlSeconds ?? 10) * 1000, MAX_CACHE_ENTRIES, this.now);
    this.limiter = new KeyRateLimiter(this.now);
    this.lastUsed = new LastUsedTracker((batch) => this.store.touch(batch), (options.lastUsedIntervalSeconds ?? 60) * 1000, (error) =>
      getRootLogger().warn('API keys: writing last-used times failed; they are kept for the next write', { error: (error as Error).message }),
    );
    this.defaultRateLimit = options.defaultRateLimit;
    if (options.registerVerifier !== false) {
      registerApiKeyVerifier((key) => this.verify(key));
      registerApiKeyRateLimitCheck((keyId, limit) => this.countRequest(keyId, limit));
      registerAccessTokenVerifier(async (token) => {
        const verified = await verifyAccessToken(token);
        return { subject: verified.subject, scopes: verified.scopes, groups: verified.groups, claims: verified.claims };
      });
    }
  }

  /** Loaded on first use (deployed, from Secrets Manager); a failed load is retried by the next call. */
  private pepper(): Promise<string> {
    if (!this.pepperValue) {
      const pepper = this.options.pepper !== undefined ? Promise.resolve(this.options.pepper) : loadPepper();
      this.pepperValue = pepper;
      pepper.catch(() => {
        if (this.pepperValue === pepper) this.pepperValue = undefined;
      });
    }
    return this.pepperValue;
  }

  /** Issues a key; the returned `key` is the only time its secret exists outside the caller. */
  async issue(options: IssueApiKeyOptions): Promise<IssuedApiKey> {
    if (!options.owner || !options.name) throw new IntegrationsError('FW_ERR_API_KEY_OPTIONS', 'issue needs an owner (who the key acts for) and a name (a label for the owner)');
    const scopes = [...new Set(options.scopes)];
    const unknown = scopes.filter((s) => !this.allowedScopes.has(s));
    if (scopes.length === 0 || unknown.length > 0) throw new UnknownScope(unknown, [...this.allowedScopes]);
    if (options.expiresAt && options.expiresAt.getTime() <= this.now()) throw new IntegrationsError('FW_ERR_API_KEY_OPTIONS', `expiresAt ${options.expiresAt.toISOString()} is in the past: give a future time, or none for a key that does not expire`);
    const rateLimit = options.rateLimit ?? this.defaultRateLimit;
    if (rateLimit) checkRateLimit(rateLimit);
    const { key, prefix } = generateApiKey(this.kind);
    const stored = await this.store.insert({
      prefix,
      kind: this.kind,
      hash: hashApiKey(key, await this.pepper()),
      owner: options.owner,
      ...(options.tenant ? { tenant: options.tenant } : {}),
      name: options.name,
      scopes,
      ...(rateLimit ? { rateLimit } : {}),
      ...(options.expiresAt ? { expiresAt: options.expiresAt } : {}),
    });
    return { key, record: withoutHash(stored) };
  }

  /** The owner's keys (never the keys themselves). */
  async list(owner: string): Promise<ApiKeyRecord[]> {
    return (await this.store.list(owner)).map(withoutHash);
  }

  /** Revokes the owner's key now (this container at once, others within `cacheTtlSeconds`); 404 when there is none. */
  async revoke(owner: string, id: string): Promise<void> {
    const record = await this.store.get(owner, id);
    if (!record || !(await this.store.revoke(owner, id))) throw new NotFound(`No active API key ${id} for this owner`, { code: 'API_KEY_NOT_FOUND' });
    this.forget(record.prefix);
  }

  /**
   * A new key with the same owner, name, scopes and limit; the old one keeps working for `overlapSeconds` (so callers
   * can switch without downtime), then expires.
   */
  async rotate(owner: string, id: string, overlapSeconds = 24 * 3600): Promise<IssuedApiKey> {
    const old = await this.store.get(owner, id);
    if (!old || old.revokedAt) throw new NotFound(`No active API key ${id} for this owner`, { code: 'API_KEY_NOT_FOUND' });
    const issued = await this.issue({ owner, name: old.name, scopes: old.scopes.filter((s) => this.allowedScopes.has(s)), ...(old.expiresAt ? { expiresAt: old.expiresAt } : {}), ...(old.rateLimit ? { rateLimit: old.rateLimit } : {}) });
    await this.store.expireBy(owner, id, new Date(this.now() + overlapSeconds * 1000));
    this.forget(old.prefix);
    return issued;
  }

  /**
   * Who a presented key belongs to; `InvalidApiKey` (401) for anything wrong with it, `ApiKeyRateLimited` (429) over
   * its limit. A cached record costs one HMAC and one map lookup; the hash comparison is constant-time.
   */
  async verify(key: string): Promise<ApiKeyIdentity> {
    const { identity, rateLimit } = await this.authenticate(key);
    if (rateLimit) this.countRequest(identity.keyId, rateLimit);
    return identity;
  }

  /**
   * Who a presented key belongs to, and its rate limit, without counting the request (`InvalidApiKey` for anything
   * wrong with it): what the Lambda authorizer calls, since API Gateway caches its verdict and the route function
   * counts instead (`countRequest`).
   */
  async authenticate(key: string): Promise<AuthenticatedApiKey> {
    const parsed = parseApiKey(key);
    if (!parsed || parsed.kind !== this.kind) throw new InvalidApiKey();
    const hash = hashApiKey(key, await this.pepper());
    let record: StoredApiKey | undefined;
    const cached = this.cache.get(parsed.prefix);
    if (cached) {
      record = cached.record;
      // Past 3/4 of its TTL: re-read in the background, so a key in steady use never waits for the database.
      if (cached.refreshDue && !this.reads.has(parsed.prefix)) {
        this.cache.noteRefresh();
        this.read(parsed.prefix).catch((error: unknown) => getRootLogger().warn('API keys: refreshing a cached key failed; it is read again on its next use', { error: (error as Error).message }));
      }
    } else record = await this.read(parsed.prefix);
    if (!record || !hashesEqual(hash, record.hash)) throw new InvalidApiKey();
    const now = this.now();
    if (record.revokedAt || (record.expiresAt && record.expiresAt.getTime() <= now)) throw new InvalidApiKey();
    this.lastUsed.note(record.id, new Date(now));
    const identity: ApiKeyIdentity = { keyId: record.id, owner: record.owner, scopes: record.scopes, ...(record.tenant !== undefined ? { tenant: record.tenant } : {}) };
    return { identity, ...(record.rateLimit ? { rateLimit: record.rateLimit } : {}) };
  }

  /** Drops the cached record and any read in flight of it (which may have read the row before the change). */
  private forget(prefix: string): void {
    this.cache.forget(prefix);
    this.reads.delete(prefix);
  }

  /** The stored key by prefix, one database read per prefix at a time (concurrent misses share it), then cached. */
  private read(prefix: string): Promise<StoredApiKey | undefined> {
    let reading = this.reads.get(prefix);
    if (!reading) {
      const started = this.cache.startRead();
      const done = () => {
        if (this.reads.get(prefix) === reading) this.reads.delete(prefix);
      };
      reading = this.store.findByPrefix(prefix).then(
        (record) => {
          done();
          this.cache.set(prefix, record, started);
          return record;
        },
        (error: unknown) => {
          done();
          throw error;
        },
      );
      this.reads.set(prefix, reading);
    }
    return reading;
  }

  /** Counts one request of a key against its limit in this container; `ApiKeyRateLimited` (429) when over it. */
  countRequest(keyId: string, limit: ApiKeyRateLimit): void {
    const wait = this.limiter.take(keyId, limit);
    if (wait !== undefined) throw new ApiKeyRateLimited(wait);
  }

  /** Verification cache hits and misses in this container. */
  cacheStats(): CacheStats {
    return this.cache.stats();
  }

  /** Writes pending last-used times now (tests; a graceful shutdown). */
  flushLastUsed(): Promise<void> {
    return this.lastUsed.flush();
  }
}

function checkRateLimit(limit: ApiKeyRateLimit): void {
  if (!Number.isInteger(limit.requests) || limit.requests < 1 || !Number.isInteger(limit.windowSeconds) || limit.windowSeconds < 1) {
    throw new IntegrationsError('FW_ERR_API_KEY_OPTIONS', `rate limit ${JSON.stringify(limit)}: requests and windowSeconds must be whole numbers of at least 1`);
  }
}

function withoutHash(stored: StoredApiKey): ApiKeyRecord {
  const { hash: _hash, ...record } = stored;
  return record;
}

/** API keys for this app (see `ApiKeys`); registers itself as the verifier of `auth: [..., 'apiKey']` routes. */
export function createApiKeys(options: ApiKeysOptions): ApiKeys {
  return new ApiKeys(options);
}

/** A verifier of the app's keys that issues none and registers nothing (the Lambda authorizer's). */
export function createApiKeyVerifier(options: Omit<ApiKeysOptions, 'allowedScopes' | 'registerVerifier'> = {}): ApiKeys {
  return new ApiKeys({ ...options, allowedScopes: [], registerVerifier: false }, true);
}
