import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { PendingIdempotencyRecord } from '@framework/runtime';
import { expect } from 'chai';
import { PersistentIdempotencyStore } from '../../src/dev/idempotency/persistent-idempotency-store.js';

/** fw dev's idempotency store on its own: a journal under a temporary `.fw/idempotency/`. */
describe('PersistentIdempotencyStore (fw dev)', () => {
  let dir: string;
  let file: string;
  const open: PersistentIdempotencyStore[] = [];
  const openStore = async (nowMs?: number) => {
    const store = await PersistentIdempotencyStore.open(file, nowMs);
    open.push(store);
    return store;
  };
  const pending = (key: string, owner: string, nowMs: number, ttlSeconds = 3600): PendingIdempotencyRecord => ({
    key,
    status: 'pending',
    owner,
    fingerprint: 'fp',
    leaseExpiresAt: nowMs + 60_000,
    expiresAt: Math.floor(nowMs / 1000) + ttlSeconds,
  });

  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fw-idempotency-store-'));
    file = path.join(dir, '.fw', 'idempotency', 'records.jsonl');
  });
  afterEach(async () => {
    for (const store of open.splice(0)) await store.close().catch(() => undefined);
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('keeps completed and pending records across a close and reopen', async () => {
    const now = Date.now();
    const first = await openStore();
    expect((await first.acquire(pending('r#a#done', 'o1', now), now)).acquired).to.equal(true);
    await first.complete('r#a#done', 'o1', '{"statusCode":201}', Math.floor(now / 1000) + 3600);
    await first.acquire(pending('r#a#running', 'o2', now), now);
    await first.close();

    const reopened = await openStore();
    expect(await reopened.get('r#a#done', now)).to.include({ status: 'completed', data: '{"statusCode":201}', fingerprint: 'fp' });
    expect(await reopened.get('r#a#running', now)).to.include({ status: 'pending', owner: 'o2' });
    // the owner of the pending record can still finish it; nobody else can
    expect(await reopened.serve({ op: 'complete', key: 'r#a#running', owner: 'intruder', data: '{}', expiresAt: Math.floor(now / 1000) + 60 })).to.deep.equal({ notOwner: true });
    expect(await reopened.serve({ op: 'release', key: 'r#a#running', owner: 'o2' })).to.deep.equal({});
    await reopened.close();
    expect(await (await openStore()).get('r#a#running', now)).to.equal(undefined);
  });

  it('skips a line cut short by a crash and keeps every change made after it', async () => {
    const now = Date.now();
    const first = await openStore();
    await first.acquire(pending('r#a#before', 'o1', now), now);
    await first.close();
    // a write torn by kill -9: half a record, no newline
    fs.appendFileSync(file, '0badc0de {"put":{"key":"r#a#torn","status":"pen');

    const second = await openStore();
    expect(await second.get('r#a#torn', now)).to.equal(undefined);
    await second.acquire(pending('r#a#after', 'o2', now), now);
    await second.close();

    const third = await openStore();
    expect(await third.get('r#a#before', now)).to.not.equal(undefined);
    expect(await third.get('r#a#after', now)).to.not.equal(undefined);
  });

  it('drops records whose TTL has passed when it opens', async () => {
    const now = Date.now();
    const first = await openStore();
    await first.acquire(pending('r#a#short', 'o1', now, 60), now);
    await first.complete('r#a#short', 'o1', '{}', Math.floor(now / 1000) + 60);
    await first.acquire(pending('r#a#long', 'o2', now, 3600), now);
    await first.complete('r#a#long', 'o2', '{}', Math.floor(now / 1000) + 3600);
    await first.close();

    const later = now + 120_000;
    const reopened = await openStore(later);
    expect(reopened.size).to.equal(1);
    expect(await reopened.get('r#a#long', later)).to.not.equal(undefined);
    expect(await reopened.get('r#a#short', later)).to.equal(undefined);
  });

  it('lets one of many concurrent acquires of a key win, and every one is answered after its write', async () => {
    const now = Date.now();
    const store = await openStore();
    const results = await Promise.all(Array.from({ length: 20 }, (_, i) => store.acquire(pending('r#a#race', `o${i}`, now), now)));
    expect(results.filter((r) => r.acquired)).to.have.length(1);
  });

  it('compacts its journal as it grows, without losing a record', async () => {
    const now = Date.now();
    const store = await openStore();
    for (let i = 0; i < 700; i++) {
      const key = `r#a#k${i % 10}`;
      const existing = await store.get(key, now);
      if (existing?.owner) await store.release(key, existing.owner);
      await store.acquire(pending(key, `o${i}`, now), now);
    }
    await store.close();
    const lines = fs.readFileSync(file, 'utf8').split('\n').filter(Boolean).length;
    expect(lines).to.be.below(1_100);
    const reopened = await openStore();
    expect(reopened.size).to.equal(10);
    expect((await reopened.get('r#a#k9', now))?.owner).to.equal('o699');
  });
});
