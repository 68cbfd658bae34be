import { CHANNELS_MIGRATION, createNotifier, NOTIFY_RECIPIENT_MIGRATION_SQL, notifyMigrationSql } from '@framework/notify';
import { runWithTenant } from '@framework-pro/tenancy';
import { expect } from 'chai';
import { ChatConfigError, createChat, sendUnreadDigests, unreadDigestNotification, UNREAD_DIGEST_TEMPLATE, type UnreadDigestData } from '../../src/index.js';
import { ENGINES, upSql, useChatDatabase } from '../support/chat-database.js';

const acme = <T>(fn: () => Promise<T>) => runWithTenant({ id: 'acme' }, fn);
const globex = <T>(fn: () => Promise<T>) => runWithTenant({ id: 'globex' }, fn);

for (const engine of ENGINES) {
  describe(`the unread digest on ${engine.name}`, function () {
    this.timeout(120_000);
    const database = useChatDatabase(engine);
    before(async () => {
      for (const migration of [notifyMigrationSql(), CHANNELS_MIGRATION, NOTIFY_RECIPIENT_MIGRATION_SQL]) await database.owner().query(upSql(migration));
    });
    const chat = createChat();
    const as = (user: string) => chat.as(user, database.db());
    const notifier = createNotifier({ templates: { [UNREAD_DIGEST_TEMPLATE]: unreadDigestNotification } });
    // dave has no address: no digest for him, and his messages stay untold.
    const recipient = (userId: string) => (userId === 'dave' ? undefined : { email: `${userId}@example.com` });
    /** "Now" far enough ahead that every message so far is unread for more than the 15 minutes. */
    const later = () => new Date(Date.now() + 20 * 60_000);
    const outbox = async () =>
      (await database.owner().query<{ user_id: string; recipient: string; data: UnreadDigestData; idempotency_key: string }>(`SELECT user_id, recipient, data, idempotency_key FROM fw_notify_outbox WHERE template = '${UNREAD_DIGEST_TEMPLATE}' ORDER BY created_at, user_id`)).rows;

    it('sends one digest per member with messages unread past N minutes, once per watermark, retries and concurrent runs included', async () => {
      const { plan, launch } = await acme(async () => {
        const plan = await as('alice').createRoom({ name: 'Plan', members: ['bob', 'carol', 'dave'] });
        const launch = await as('alice').createRoom({ name: 'Launch', members: ['bob'] });
        for (const text of ['one', 'two', 'three']) await as('alice').send(plan.id, { clientMessageId: text, text });
        await as('alice').send(launch.id, { clientMessageId: 'go', text: 'go' });
        await as('bob').markRead(plan.id, 1);
        const gone = await as('alice').send(plan.id, { clientMessageId: 'oops', text: 'oops' });
        await as('alice').delete(gone.message.id);
        return { plan, launch };
      });
      // Not yet N minutes: nothing.
      expect(await acme(() => sendUnreadDigests(database.db(), { notifier, recipient, afterMinutes: 15 }))).to.deep.include({ digests: 0, skipped: 0 });

      const first = await acme(() => sendUnreadDigests(database.db(), { notifier, recipient, now: later() }));
      expect([first.digests, first.skipped]).to.deep.equal([2, 1]);
      const rows = await outbox();
      expect(rows.map((r) => [r.user_id, r.recipient, r.data.total])).to.deep.equal([
        ['bob', 'bob@example.com', 3],
        ['carol', 'carol@example.com', 3],
      ]);
      const bob = rows.find((r) => r.user_id === 'bob')!.data;
      expect(bob.rooms.map((r) => [r.roomId, r.name, r.unread]).sort()).to.deep.equal(
        [
          [plan.id, 'Plan', 2], // seq 2 and 3: he read 1, and 4 was deleted
          [launch.id, 'Launch', 1],
        ].sort(),
      );

      // A retried run (the scheduler's retry) and two runs at once: nothing more.
      const again = await Promise.all([1, 2].map(() => acme(() => sendUnreadDigests(database.db(), { notifier, recipient, now: later() }))));
      expect(again.map((r) => r.digests)).to.deep.equal([0, 0]);
      expect(await outbox()).to.have.length(2);

      // A new message: a new digest, of it alone; bob reads it first, so only carol gets one.
      await acme(() => as('alice').send(plan.id, { clientMessageId: 'five', text: 'five' }));
      await acme(() => as('bob').markRead(plan.id, 5));
      const raced = await Promise.all([1, 2, 3].map(() => acme(() => sendUnreadDigests(database.db(), { notifier, recipient, now: later() }))));
      expect(raced.reduce((sum, r) => sum + r.digests, 0), 'concurrent runs: one digest').to.equal(1);
      const last = (await outbox()).slice(2);
      expect(last.map((r) => [r.user_id, r.data.total, r.data.rooms.map((room) => room.unread)])).to.deep.equal([['carol', 1, [1]]]);
      expect(new Set((await outbox()).map((r) => r.idempotency_key)).size).to.equal(3);

      // Another tenant's run sees none of it.
      expect(await globex(() => sendUnreadDigests(database.db(), { notifier, recipient, now: later() }))).to.deep.include({ digests: 0, skipped: 0 });
    });

    it('says what is wrong with its options, and that it runs as a tenant', async () => {
      await acme(async () => {
        for (const afterMinutes of [0, 1.5, 20_000]) {
          const error = await sendUnreadDigests(database.db(), { notifier, recipient, afterMinutes }).catch((e: unknown) => e);
          expect(error).to.be.instanceOf(ChatConfigError).and.to.have.property('code', 'FW_ERR_CHAT_INVALID_OPTIONS');
        }
      });
      const error = await sendUnreadDigests(database.db(), { notifier, recipient }).catch((e: unknown) => e);
      expect((error as Error).message).to.match(/runs as a tenant/);
    });
  });
}
