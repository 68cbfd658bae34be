import { expect } from 'chai';
import { HttpError } from '@framework/runtime';
import { createApiKeys, hashApiKey, IntegrationsError, InvalidApiKey, ApiKeyRateLimited, UnknownScope, type ApiKeys } from '../../src/index.js';
import { startTestDatabase, type TestDatabase } from '../support/pglite-database.js';

const PEPPER = 'a-test-pepper-of-at-least-thirty-two-characters';

/** What a promise rejected with (fails the test when it resolved). */
async function rejection(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => expect.fail('expected a rejection'),
    (error: unknown) => error,
  );
}

describe('API keys (createApiKeys) on PGlite', () => {
  let database: TestDatabase;
  let clock: number;
  let keys: ApiKeys;

  before(async function () {
    this.timeout(60_000);
    database = await startTestDatabase();
  });
  after(async () => database?.stop());
  beforeEach(() => {
    clock = Date.parse('2026-11-23T10:00:00Z');
    keys = createApiKeys({ allowedScopes: ['tasks:read', 'tasks:write'], db: () => database.db, pepper: PEPPER, kind: 'test', now: () => clock, registerVerifier: false, cacheTtlSeconds: 10 });
  });

  it('issues sk_test_<prefix>_<secret>, stores only the peppered hash, and verifies the key to its owner and scopes', async () => {
    const { key, record } = await keys.issue({ owner: 'user-1', name: 'ci', scopes: ['tasks:read'] });
    expect(key).to.match(/^sk_test_[a-z0-9]{12}_[A-Za-z0-9_-]{43}$/);
    expect(record).to.include({ owner: 'user-1', name: 'ci', kind: 'test' });
    expect(record).not.to.have.property('hash');
    const row = await database.db.one<Record<string, unknown>>((await import('@framework/data')).sql`SELECT * FROM fw_api_keys WHERE id = ${record.id}`);
    expect(JSON.stringify(row)).not.to.contain(key.split('_').pop());
    expect(row['hash']).to.equal(hashApiKey(key, PEPPER));
    expect(await keys.verify(key)).to.deep.equal({ keyId: record.id, owner: 'user-1', scopes: ['tasks:read'] });
  });

  it('refuses a forged secret, an unknown prefix, the other kind and garbage alike (401 INVALID_API_KEY)', async () => {
    const { key } = await keys.issue({ owner: 'user-1', name: 'ci', scopes: ['tasks:read'] });
    const forged = key.slice(0, -1) + (key.endsWith('A') ? 'B' : 'A');
    for (const bad of [forged, key.replace(/_[a-z0-9]{12}_/, '_zzzzzzzzzzzz_'), key.replace('sk_test_', 'sk_live_'), 'sk_test_nope', '']) {
      const error = await rejection(keys.verify(bad));
      expect(error).to.be.instanceOf(InvalidApiKey);
      expect([(error as HttpError).status, (error as HttpError).code]).to.deep.equal([401, 'INVALID_API_KEY']);
    }
  });

  it('restricts scopes to the declared ones (400 UNKNOWN_SCOPE) and refuses options it cannot use', async () => {
    const unknown = await rejection(keys.issue({ owner: 'u', name: 'n', scopes: ['tasks:read', 'billing:admin'] }));
    expect(unknown).to.be.instanceOf(UnknownScope);
    expect((unknown as HttpError).details).to.deep.include({ unknownScopes: ['billing:admin'] });
    expect(await rejection(keys.issue({ owner: 'u', name: 'n', scopes: [] }))).to.be.instanceOf(UnknownScope);
    expect(await rejection(keys.issue({ owner: 'u', name: 'n', scopes: ['tasks:read'], expiresAt: new Date(clock - 1) }))).to.be.instanceOf(IntegrationsError).with.property('code', 'FW_ERR_API_KEY_OPTIONS');
    expect(await rejection(keys.issue({ owner: 'u', name: 'n', scopes: ['tasks:read'], rateLimit: { requests: 0, windowSeconds: 1 } }))).to.have.property('code', 'FW_ERR_API_KEY_OPTIONS');
    expect(() => createApiKeys({ allowedScopes: [], pepper: PEPPER, registerVerifier: false })).to.throw(IntegrationsError, 'allowedScopes');
  });

  it('stops accepting a key at its expiry', async () => {
    const { key } = await keys.issue({ owner: 'u', name: 'n', scopes: ['tasks:read'], expiresAt: new Date(clock + 60_000) });
    await keys.verify(key);
    clock += 60_000;
    expect(await rejection(keys.verify(key))).to.be.instanceOf(InvalidApiKey);
  });

  it('revokes at once in this container and within the cache TTL in another; another owner cannot revoke it', async () => {
    const { key, record } = await keys.issue({ owner: 'u', name: 'n', scopes: ['tasks:read'] });
    const other = createApiKeys({ allowedScopes: ['tasks:read'], db: () => database.db, pepper: PEPPER, kind: 'test', now: () => clock, registerVerifier: false, cacheTtlSeconds: 10 });
    await other.verify(key);
    expect(await rejection(keys.revoke('someone-else', record.id))).to.have.property('code', 'API_KEY_NOT_FOUND');
    await keys.revoke('u', record.id);
    expect(await rejection(keys.verify(key))).to.be.instanceOf(InvalidApiKey);
    // The other container still has the record cached; after the TTL it reads the revocation.
    await other.verify(key);
    clock += 10_000;
    expect(await rejection(other.verify(key))).to.be.instanceOf(InvalidApiKey);
  });

  it('rotates with overlap: both keys work until the overlap ends, then only the new one', async () => {
    const old = await keys.issue({ owner: 'u', name: 'deploys', scopes: ['tasks:read', 'tasks:write'] });
    const rotated = await keys.rotate('u', old.record.id, 3600);
    expect(rotated.record).to.include({ owner: 'u', name: 'deploys' });
    expect(rotated.record.scopes).to.deep.equal(['tasks:read', 'tasks:write']);
    await keys.verify(old.key);
    await keys.verify(rotated.key);
    clock += 3600_000;
    expect(await rejection(keys.verify(old.key))).to.be.instanceOf(InvalidApiKey);
    await keys.verify(rotated.key);
  });

  it('limits a key to its rate (429 API_KEY_RATE_LIMITED with Retry-After), per window', async () => {
    const { key } = await keys.issue({ owner: 'u', name: 'n', scopes: ['tasks:read'], rateLimit: { requests: 2, windowSeconds: 60 } });
    await keys.verify(key);
    clock += 20_000;
    await keys.verify(key);
    const limited = await rejection(keys.verify(key));
    expect(limited).to.be.instanceOf(ApiKeyRateLimited);
    expect((limited as HttpError).headers['retry-after']).to.equal('40');
    clock += 40_000;
    await keys.verify(key);
  });

  it('writes last-used times in one batch, not per request, and serves repeated verifications from the cache', async () => {
    const a = await keys.issue({ owner: 'busy', name: 'a', scopes: ['tasks:read'] });
    const b = await keys.issue({ owner: 'busy', name: 'b', scopes: ['tasks:read'] });
    for (let i = 0; i < 5; i++) {
      await keys.verify(a.key);
      await keys.verify(b.key);
    }
    expect((await keys.list('busy')).every((k) => k.lastUsedAt === undefined)).to.equal(true);
    await keys.flushLastUsed();
    const listed = await keys.list('busy');
    expect(listed.map((k) => k.lastUsedAt?.getTime())).to.deep.equal([clock, clock]);
    expect(keys.cacheStats()).to.deep.equal({ hits: 8, misses: 2 });
  });
});
