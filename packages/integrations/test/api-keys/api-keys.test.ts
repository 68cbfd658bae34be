import { expect } from 'chai';
import type { Queryable, SqlFragment } from '@framework/data';
import { HttpError } from '@framework/runtime';
import { createApiKeys, hashApiKey, IntegrationsError, InvalidApiKey, ApiKeyRateLimited, UnknownScope, type ApiKeys } from '../../src/index.js';
import { secretOf } from '../support/api-key-secret.js';
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
    expect(JSON.stringify(row)).not.to.contain(secretOf(key));
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

  /** The database, with the key lookups counted and their answers held until `release` (a read in flight). */
  const watchedLookups = () => {
    let open!: () => void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    let held = false;
    const watched = { lookups: 0, answered: 0, hold: () => void (held = true), release: () => open() };
    const db: Queryable = new Proxy(database.db as Queryable, {
      get(target, name, receiver) {
        if (name !== 'maybeOne') return Reflect.get(target, name, receiver) as unknown;
        return async (statement: SqlFragment) => {
          const lookup = statement.compile().text.includes('WHERE prefix');
          if (lookup) watched.lookups++;
          const row = await target.maybeOne(statement);
          if (lookup) watched.answered++;
          if (lookup && held) await gate;
          return row;
        };
      },
    });
    return { db, watched };
  };
  const waitFor = async (condition: () => boolean, what: string) => {
    for (let i = 0; i < 400 && !condition(); i++) await new Promise((resolve) => setTimeout(resolve, 5));
    if (!condition()) expect.fail(`gave up waiting for ${what}`);
  };

  it('re-reads a key in steady use in the background past 3/4 of its TTL: no request waits, a revocation elsewhere still lands within the TTL', async () => {
    const { db, watched } = watchedLookups();
    const container = createApiKeys({ allowedScopes: ['tasks:read'], db: () => db, pepper: PEPPER, kind: 'test', now: () => clock, registerVerifier: false, cacheTtlSeconds: 10 });
    const { key, record } = await keys.issue({ owner: 'steady', name: 'n', scopes: ['tasks:read'] });
    await container.verify(key);
    clock += 7_000;
    await container.verify(key);
    expect(watched.lookups).to.equal(1);
    // Past 3/4 of the TTL: answered from the cache, and one read (not one per request) started behind it.
    clock += 1_000;
    await container.verify(key);
    await container.verify(key);
    expect(watched.lookups).to.equal(2);
    await waitFor(() => watched.answered === 2, 'the background read');
    // Revoked in another container: the refreshed entry (read at +8 s) answers until +18 s, not longer.
    await keys.revoke('steady', record.id);
    clock += 9_000;
    await container.verify(key);
    // At +17 s that entry still answered, and started the read that finds the revocation.
    await waitFor(() => watched.answered === 3, 'the second background read');
    clock += 1_000;
    expect(await rejection(container.verify(key))).to.be.instanceOf(InvalidApiKey);
    expect(container.cacheStats()).to.deep.equal({ hits: 5, misses: 1, refreshes: 2 });
  });

  it('makes one database read for concurrent misses of one key', async () => {
    const { db, watched } = watchedLookups();
    const container = createApiKeys({ allowedScopes: ['tasks:read'], db: () => db, pepper: PEPPER, kind: 'test', now: () => clock, registerVerifier: false });
    const { key, record } = await keys.issue({ owner: 'burst', name: 'n', scopes: ['tasks:read'] });
    const answers = await Promise.all(Array.from({ length: 5 }, () => container.verify(key)));
    expect(answers.map((a) => a.keyId)).to.deep.equal(Array(5).fill(record.id));
    expect(watched.lookups).to.equal(1);
    expect(await rejection(Promise.all(Array.from({ length: 3 }, () => container.verify(key.replace(/_[a-z0-9]{12}_/, '_zzzzzzzzzzzz_')))))).to.be.instanceOf(InvalidApiKey);
    expect(watched.lookups).to.equal(2);
  });

  it('revokes at once in this container even while a read of the key (of the row before) is in flight', async () => {
    const { db, watched } = watchedLookups();
    const container = createApiKeys({ allowedScopes: ['tasks:read'], db: () => db, pepper: PEPPER, kind: 'test', now: () => clock, registerVerifier: false });
    const { key, record } = await keys.issue({ owner: 'racer', name: 'n', scopes: ['tasks:read'] });
    watched.hold();
    const before = container.verify(key);
    await waitFor(() => watched.answered === 1, 'the first read');
    await container.revoke('racer', record.id);
    const after = container.verify(key);
    await waitFor(() => watched.lookups === 2, 'a fresh read after the revocation');
    watched.release();
    // The request that arrived before the revocation may pass; none after it, and the old row is not cached.
    expect((await before).keyId).to.equal(record.id);
    expect(await rejection(after)).to.be.instanceOf(InvalidApiKey);
    expect(await rejection(container.verify(key))).to.be.instanceOf(InvalidApiKey);
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
    expect(keys.cacheStats()).to.deep.equal({ hits: 8, misses: 2, refreshes: 0 });
  });
});
