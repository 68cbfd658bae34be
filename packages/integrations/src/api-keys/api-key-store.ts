import { sql, type Queryable } from '@framework/data';
import type { ApiKeyKind } from './api-key-format.js';
import type { ApiKeyRateLimit, StoredApiKey } from './api-key-record.js';

interface ApiKeyRow {
  id: string;
  prefix: string;
  kind: ApiKeyKind;
  hash: string;
  owner: string;
  tenant: string | null;
  name: string;
  scopes: string[];
  rate_limit_requests: number | null;
  rate_limit_window_seconds: number | null;
  created_at: Date;
  expires_at: Date | null;
  revoked_at: Date | null;
  last_used_at: Date | null;
}

export interface NewApiKey {
  readonly prefix: string;
  readonly kind: ApiKeyKind;
  readonly hash: string;
  readonly owner: string;
  readonly tenant?: string;
  readonly name: string;
  readonly scopes: readonly string[];
  readonly rateLimit?: ApiKeyRateLimit;
  readonly expiresAt?: Date;
}

const toRecord = (row: ApiKeyRow): StoredApiKey => ({
  id: row.id,
  prefix: row.prefix,
  kind: row.kind,
  hash: row.hash,
  owner: row.owner,
  ...(row.tenant !== null && row.tenant !== undefined ? { tenant: row.tenant } : {}),
  name: row.name,
  scopes: row.scopes,
  ...(row.rate_limit_requests !== null && row.rate_limit_window_seconds !== null ? { rateLimit: { requests: row.rate_limit_requests, windowSeconds: row.rate_limit_window_seconds } } : {}),
  createdAt: row.created_at,
  ...(row.expires_at ? { expiresAt: row.expires_at } : {}),
  ...(row.revoked_at ? { revokedAt: row.revoked_at } : {}),
  ...(row.last_used_at ? { lastUsedAt: row.last_used_at } : {}),
});

/**
 * The keys in the app's PostgreSQL, table `fw_api_keys` (the package's migration, `migrations/` of the package).
 * Every statement but the verifier's lookup by prefix names the owner: one owner never reads or revokes another's key.
 */
export class ApiKeyStore {
  constructor(private readonly db: () => Queryable) {}

  async insert(key: NewApiKey): Promise<StoredApiKey> {
    const row = await this.db().one<ApiKeyRow>(sql`
      INSERT INTO fw_api_keys (prefix, kind, hash, owner, tenant, name, scopes, rate_limit_requests, rate_limit_window_seconds, expires_at)
      VALUES (${key.prefix}, ${key.kind}, ${key.hash}, ${key.owner}, ${key.tenant ?? null}, ${key.name}, ${[...key.scopes]}, ${key.rateLimit?.requests ?? null}, ${key.rateLimit?.windowSeconds ?? null}, ${key.expiresAt ?? null})
      RETURNING *`);
    return toRecord(row);
  }

  async findByPrefix(prefix: string): Promise<StoredApiKey | undefined> {
    const row = await this.db().maybeOne<ApiKeyRow>(sql`SELECT * FROM fw_api_keys WHERE prefix = ${prefix}`);
    return row ? toRecord(row) : undefined;
  }

  async get(owner: string, id: string): Promise<StoredApiKey | undefined> {
    if (!UUID.test(id)) return undefined;
    const row = await this.db().maybeOne<ApiKeyRow>(sql`SELECT * FROM fw_api_keys WHERE id = ${id} AND owner = ${owner}`);
    return row ? toRecord(row) : undefined;
  }

  async list(owner: string): Promise<StoredApiKey[]> {
    const rows = await this.db().many<ApiKeyRow>(sql`SELECT * FROM fw_api_keys WHERE owner = ${owner} ORDER BY created_at, id`);
    return rows.map(toRecord);
  }

  /** Revokes now; false when this owner has no such key (or it was revoked already). */
  async revoke(owner: string, id: string): Promise<boolean> {
    if (!UUID.test(id)) return false;
    const row = await this.db().maybeOne<{ id: string }>(sql`UPDATE fw_api_keys SET revoked_at = now() WHERE id = ${id} AND owner = ${owner} AND revoked_at IS NULL RETURNING id`);
    return row !== undefined;
  }

  /** Lets the key live until `until` at the latest (a rotation's overlap). */
  async expireBy(owner: string, id: string, until: Date): Promise<void> {
    await this.db().query(sql`UPDATE fw_api_keys SET expires_at = LEAST(COALESCE(expires_at, ${until}), ${until}) WHERE id = ${id} AND owner = ${owner}`);
  }

  /** One statement for a batch of last-used times (the newest wins; never moved backwards). */
  async touch(lastUsed: ReadonlyMap<string, Date>): Promise<void> {
    if (lastUsed.size === 0) return;
    const ids = [...lastUsed.keys()];
    const times = ids.map((id) => lastUsed.get(id)!.toISOString());
    await this.db().query(sql`
      UPDATE fw_api_keys AS k SET last_used_at = GREATEST(COALESCE(k.last_used_at, u.at), u.at)
      FROM unnest(${ids}::uuid[], ${times}::timestamptz[]) AS u(id, at) WHERE k.id = u.id`);
  }
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
