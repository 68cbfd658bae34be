import { expect } from 'chai';
import { ALL_CATEGORIES, decideChannels, InvalidNotifyArgumentError, PreferenceStore } from '../../src/index.js';
import { useChannelsDatabase } from '../support/channels-database.js';

describe('preferences', () => {
  const db = useChannelsDatabase();

  it('stores opt-out and channel choice per user and category; fields not given keep their value', async () => {
    const store = new PreferenceStore(db());
    await store.set('pref-1', 'comments', { channels: ['email', 'push'] });
    await store.optOut('pref-1', 'comments');
    const stored = await store.get('pref-1', 'comments');
    expect(stored).to.include({ userId: 'pref-1', category: 'comments', optedOut: true });
    expect(stored?.channels).to.deep.equal(['email', 'push']);
    await store.set('pref-1', 'comments', { channels: null, optedOut: false });
    const cleared = await store.get('pref-1', 'comments');
    expect(cleared?.optedOut).to.equal(false);
    expect(cleared?.channels).to.equal(undefined);
    expect(await store.get('pref-2', 'comments')).to.equal(undefined);
  });

  it("a category's own row wins over the user's '*' row, which applies to every other category", async () => {
    const store = new PreferenceStore(db());
    await store.optOut('pref-3', ALL_CATEGORIES);
    await store.set('pref-3', 'billing', { optedOut: false, channels: ['email'] });
    expect((await store.effective('pref-3', 'marketing'))?.optedOut).to.equal(true);
    expect((await store.effective('pref-3', 'billing'))?.optedOut).to.equal(false);
    expect((await store.list('pref-3')).map((p) => p.category)).to.deep.equal(['*', 'billing']);
  });

  it('a change made in a transaction that rolls back is not kept', async () => {
    await db()
      .transaction(async (tx) => {
        await new PreferenceStore(tx).optOut('pref-4', 'news');
        throw new Error('rolled back');
      })
      .catch(() => undefined);
    expect(await new PreferenceStore(db()).get('pref-4', 'news')).to.equal(undefined);
  });

  it('refuses an unknown channel and a malformed category with FW_ERR_NOTIFY_INVALID_ARGUMENT', async () => {
    const store = new PreferenceStore(db());
    for (const attempt of [() => store.set('pref-5', 'news', { channels: ['fax' as 'email'] }), () => store.get('pref-5', 'bad category!'), () => store.get('', 'news')]) {
      const error = await attempt().catch((e: unknown) => e);
      expect(error).to.be.instanceOf(InvalidNotifyArgumentError);
      expect(error).to.have.property('code', 'FW_ERR_NOTIFY_INVALID_ARGUMENT');
    }
  });

  it('decides channels: opt-out skips all, a channel choice narrows, the critical category ignores both', async () => {
    const store = new PreferenceStore(db());
    await store.optOut('pref-6', ALL_CATEGORIES);
    await store.set('pref-6', 'comments', { optedOut: false, channels: ['push'] });
    const requested = ['email', 'sms'] as const;
    const optedOut = decideChannels({ category: 'marketing', requested: [...requested], preference: await store.effective('pref-6', 'marketing') });
    expect(optedOut.send).to.deep.equal([]);
    expect(optedOut.skipped).to.deep.equal([
      { channel: 'email', reason: 'opted-out' },
      { channel: 'sms', reason: 'opted-out' },
    ]);
    const narrowed = decideChannels({ category: 'comments', requested: ['email', 'push'], preference: await store.effective('pref-6', 'comments') });
    expect(narrowed.send).to.deep.equal(['push']);
    expect(narrowed.skipped).to.deep.equal([{ channel: 'email', reason: 'channel-not-chosen' }]);
    const critical = decideChannels({ category: 'critical', requested: ['email', 'sms'], preference: await store.effective('pref-6', 'critical') });
    expect(critical.send).to.deep.equal(['email', 'sms']);
    const custom = decideChannels({ category: 'password-reset', requested: ['email'], preference: await store.effective('pref-6', 'password-reset'), criticalCategories: ['password-reset'] });
    expect(custom.send).to.deep.equal(['email']);
    const noRow = decideChannels({ category: 'comments', requested: ['sms'], preference: undefined });
    expect(noRow.send).to.deep.equal(['sms']);
  });
});
