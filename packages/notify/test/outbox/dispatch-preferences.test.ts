import { expect } from 'chai';
import { sql, type Database } from '@framework/data';
import { ENGINES, useEngine } from '../../../data/test/support/engines.js';
import { createNotifier, Dispatcher, InvalidNotificationError, PreferenceStore, SuppressionList, type DeliveryResult, type NotificationProvider, type OutgoingMessage, type SendOptions } from '../../src/index.js';
import { emptyOutbox, KeyHonouringProvider, outboxDatabase, templates } from '../support/notify-fixtures.js';

const notify = createNotifier({ templates });
const ada = { userId: 'user-ada', email: 'ada@example.com', phone: '+14155550100' };
const data = { title: 'Ship it', assignee: 'Ada' };

/** The recording provider behind the suppression check every provider of the package makes before its API call. */
class CheckingProvider implements NotificationProvider {
  readonly name = 'checking';
  readonly channels = ['email', 'sms', 'whatsapp', 'push'] as const;
  constructor(
    private readonly suppressions: SuppressionList,
    private readonly inner: KeyHonouringProvider,
  ) {}
  async send(message: OutgoingMessage, options: SendOptions): Promise<DeliveryResult> {
    await this.suppressions.assertSendable(this.name, message.channel, message.to);
    return this.inner.send(message, options);
  }
}

for (const engine of ENGINES) {
  describe(`the dispatcher applies preferences and the suppression list, on ${engine.name}`, () => {
    const server = useEngine(engine);
    let db: Database;
    let provider: KeyHonouringProvider;
    let preferences: PreferenceStore;

    before(async () => {
      db = await outboxDatabase(server().connection);
      preferences = new PreferenceStore(db);
    });
    after(async () => db?.end());
    beforeEach(async () => {
      await emptyOutbox(db);
      provider = new KeyHonouringProvider();
    });

    const dispatcher = () => new Dispatcher({ db, templates, providers: [new CheckingProvider(new SuppressionList(db), provider)], log: () => undefined });
    const rows = async () => (await db.many<{ channel: string; status: string; user_id: string | null }>(sql`SELECT channel, status, user_id FROM fw_notify_outbox ORDER BY channel, category`)).map((r) => `${r.channel}:${r.status}`);
    const log = async () => (await db.many<{ status: string; detail: string | null }>(sql`SELECT status, detail FROM fw_notify_delivery_log ORDER BY id`)).map((l) => `${l.status}:${l.detail?.split(':')[0] ?? ''}`);

    it('a user who opted out of the category is sent nothing: both rows end skipped, the log says opted-out', async () => {
      const { ids } = await db.transaction((tx) => notify.send(tx, { to: ada, template: 'task-assigned', data, category: 'tasks' }));
      // The preference is read when the dispatcher delivers, not when the row was written.
      await preferences.optOut('user-ada', 'tasks');
      expect(await dispatcher().dispatchIds(ids)).to.deep.equal({ sent: 0, retried: 0, failed: 0, skipped: 2 });
      expect(provider.calls).to.deep.equal([]);
      expect(await rows()).to.deep.equal(['email:skipped', 'sms:skipped']);
      expect(await log()).to.deep.equal(['skipped:opted-out', 'skipped:opted-out']);
      expect(await db.one<{ user_id: string }>(sql`SELECT user_id FROM fw_notify_outbox LIMIT 1`)).to.deep.equal({ user_id: 'user-ada' });
    });

    it('a channel choice is honoured: only the chosen channel is sent, the other is skipped as channel-not-chosen', async () => {
      await preferences.set('user-ada', '*', { channels: ['email'] });
      const { ids } = await db.transaction((tx) => notify.send(tx, { to: ada, template: 'task-assigned', data, category: 'tasks' }));
      expect(await dispatcher().dispatchIds(ids)).to.deep.equal({ sent: 1, retried: 0, failed: 0, skipped: 1 });
      expect(provider.delivered.map((m) => m.channel)).to.deep.equal(['email']);
      expect(await rows()).to.deep.equal(['email:sent', 'sms:skipped']);
      expect((await log()).sort()).to.deep.equal(['sent:', 'skipped:channel-not-chosen']);
    });

    it('the critical category bypasses an opt-out of everything; a message without a user id has no preferences', async () => {
      await preferences.optOut('user-ada', '*');
      const critical = await db.transaction((tx) => notify.send(tx, { to: ada, template: 'task-assigned', data, category: 'critical' }));
      const guest = await db.transaction((tx) => notify.send(tx, { to: { email: ada.email }, template: 'task-assigned', data, category: 'tasks' }));
      const tasks = await db.transaction((tx) => notify.send(tx, { to: ada, template: 'task-assigned', data, category: 'tasks' }));
      expect(await dispatcher().dispatchIds([...critical.ids, ...guest.ids, ...tasks.ids])).to.deep.equal({ sent: 3, retried: 0, failed: 0, skipped: 2 });
      expect(provider.delivered.map((m) => `${m.channel}:${m.category}`).sort()).to.deep.equal(['email:critical', 'email:tasks', 'sms:critical']);
    });

    it('a suppressed address is not a failure: the row ends suppressed with the reason, and is not retried', async () => {
      await new SuppressionList(db).add('sms', ada.phone, 'opted-out', { keyword: 'STOP' });
      const { ids } = await db.transaction((tx) => notify.send(tx, { to: ada, template: 'task-assigned', data, category: 'tasks' }));
      expect(await dispatcher().dispatchIds(ids)).to.deep.equal({ sent: 1, retried: 0, failed: 0, skipped: 1 });
      expect(await rows()).to.deep.equal(['email:sent', 'sms:suppressed']);
      const suppressed = await db.one<{ detail: string; provider: string }>(sql`SELECT detail, provider FROM fw_notify_delivery_log WHERE status = 'suppressed'`);
      expect(suppressed.detail).to.match(/^opted-out: /);
      expect(suppressed.provider).to.equal('checking');
      expect(await dispatcher().sweep()).to.deep.equal({ sent: 0, retried: 0, failed: 0, skipped: 0 });
    });

    it('refuses a user id it cannot key preferences by, before writing anything', async () => {
      const error = await db.transaction((tx) => notify.send(tx, { to: { ...ada, userId: '' }, template: 'task-assigned', data })).catch((e: unknown) => e);
      expect(error).to.be.instanceOf(InvalidNotificationError).with.property('message').that.contains('to.userId');
      expect(await db.many(sql`SELECT id FROM fw_notify_outbox`)).to.deep.equal([]);
    });
  });
}
