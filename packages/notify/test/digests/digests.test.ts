import { sql } from '@framework/data';
import { expect } from 'chai';
import { addToDigest, DigestFailedError, InvalidDigestWindowError, lastCompleteWindow, runDigest, windowMs, type Digest } from '../../src/index.js';
import { ENGINES, useChannelsDatabase } from '../support/channels-database.js';

const at = (iso: string) => new Date(iso);

describe('digest windows', () => {
  it('windows start at multiples of their length since midnight UTC', () => {
    expect(lastCompleteWindow('1d', at('2026-03-02T00:05:00Z'))).to.deep.equal({ start: at('2026-03-01T00:00:00Z'), end: at('2026-03-02T00:00:00Z') });
    expect(lastCompleteWindow('6h', at('2026-03-02T13:59:59Z'))).to.deep.equal({ start: at('2026-03-02T06:00:00Z'), end: at('2026-03-02T12:00:00Z') });
    expect(lastCompleteWindow('15m', at('2026-03-02T00:15:00Z')).end).to.deep.equal(at('2026-03-02T00:15:00Z'));
  });

  it('refuses a window that does not divide a day', () => {
    for (const window of ['7h', '0m', '1w', '36h']) expect(() => windowMs(window)).to.throw(InvalidDigestWindowError).with.property('code', 'FW_ERR_NOTIFY_DIGEST_WINDOW');
    expect(windowMs('2d')).to.equal(2 * 86_400_000);
  });
});

for (const engine of ENGINES) describe(`digests on ${engine.name}`, () => {
  const db = useChannelsDatabase(engine);

  it("a daily run sends each user's items of the closed window once; items at or after the end wait for the next run", async () => {
    await addToDigest(db(), { userId: 'ada', category: 'daily', data: { n: 1 }, at: at('2026-03-01T08:00:00Z') });
    await addToDigest(db(), { userId: 'ada', category: 'daily', data: { n: 2 }, at: at('2026-03-01T23:59:59.999Z') });
    await addToDigest(db(), { userId: 'bob', category: 'daily', data: { n: 3 }, at: at('2026-03-01T12:00:00Z') });
    await addToDigest(db(), { userId: 'ada', category: 'daily', data: { n: 4 }, at: at('2026-03-02T00:00:00Z') });
    await addToDigest(db(), { userId: 'ada', category: 'other', data: { n: 5 }, at: at('2026-03-01T09:00:00Z') });
    const sent: Digest<{ n: number }>[] = [];
    const send = async (_tx: unknown, digest: Digest<{ n: number }>) => void sent.push(digest);
    const first = await runDigest<{ n: number }>(db(), { category: 'daily', window: '1d', now: at('2026-03-02T00:05:00Z'), send });
    expect(first).to.deep.equal({ users: 2, items: 3, windowEnd: at('2026-03-02T00:00:00Z') });
    expect(sent.map((d) => [d.userId, d.items.map((i) => i.data.n)])).to.deep.equal([
      ['ada', [1, 2]],
      ['bob', [3]],
    ]);
    expect(sent[0]).to.include({ category: 'daily' });
    expect(sent[0]!.windowStart).to.deep.equal(at('2026-03-01T00:00:00Z'));
    // The cron fires again in the same window (a retry): nothing is sent twice.
    const again = await runDigest<{ n: number }>(db(), { category: 'daily', window: '1d', now: at('2026-03-02T06:00:00Z'), send });
    expect(again.items).to.equal(0);
    const next = await runDigest<{ n: number }>(db(), { category: 'daily', window: '1d', now: at('2026-03-03T00:05:00Z'), send });
    expect(next).to.include({ users: 1, items: 1 });
    expect(sent.at(-1)!.items.map((i) => i.data.n)).to.deep.equal([4]);
  });

  it('a failing send leaves that user pending (the items and what send wrote roll back together); others are sent', async () => {
    await db().query(sql`CREATE TABLE IF NOT EXISTS digest_outbox (user_id text, items int)`);
    await addToDigest(db(), { userId: 'carol', category: 'weekly-ish', data: {}, at: at('2026-03-01T01:00:00Z') });
    await addToDigest(db(), { userId: 'dave', category: 'weekly-ish', data: {}, at: at('2026-03-01T01:00:00Z') });
    const send = async (tx: { query: (s: ReturnType<typeof sql>) => Promise<unknown> }, digest: Digest) => {
      await tx.query(sql`INSERT INTO digest_outbox VALUES (${digest.userId}, ${digest.items.length})`);
      if (digest.userId === 'carol') throw new Error('template failed');
    };
    const failed = await runDigest(db(), { category: 'weekly-ish', window: '1d', now: at('2026-03-02T00:00:00Z'), send }).catch((e: unknown) => e);
    expect(failed).to.be.instanceOf(DigestFailedError).and.include({ code: 'FW_ERR_NOTIFY_DIGEST_FAILED' });
    expect((failed as DigestFailedError).userIds).to.deep.equal(['carol']);
    const written = await db().many<{ user_id: string }>(sql`SELECT user_id FROM digest_outbox`);
    expect(written).to.deep.equal([{ user_id: 'dave' }]);
    const retried = await runDigest(db(), { category: 'weekly-ish', window: '1d', now: at('2026-03-02T00:00:00Z'), send: async (tx, digest) => void (await tx.query(sql`INSERT INTO digest_outbox VALUES (${digest.userId}, ${digest.items.length})`)) });
    expect(retried).to.include({ users: 1, items: 1 });
    expect((await db().many<{ user_id: string }>(sql`SELECT user_id FROM digest_outbox ORDER BY user_id`)).map((r) => r.user_id)).to.deep.equal(['carol', 'dave']);
  });

  it('two runs at once never send an item twice', async () => {
    for (let i = 0; i < 10; i += 1) await addToDigest(db(), { userId: `u${i}`, category: 'race', data: { i }, at: at('2026-03-01T01:00:00Z') });
    const seen: string[] = [];
    const send = async (_tx: unknown, digest: Digest) => {
      for (const item of digest.items) seen.push(item.id);
      await new Promise((resolve) => setImmediate(resolve));
    };
    const options = { category: 'race', window: '1d' as const, now: at('2026-03-02T00:00:00Z'), send };
    const [a, b] = await Promise.all([runDigest(db(), options), runDigest(db(), options)]);
    expect(a.items + b.items).to.equal(10);
    expect(new Set(seen).size).to.equal(seen.length);
    expect(seen).to.have.length(10);
  });
});
