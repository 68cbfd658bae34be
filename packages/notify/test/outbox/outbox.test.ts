import { expect } from 'chai';
import { sql, type Database } from '@framework/data';
import { ENGINES, useEngine } from '../../../data/test/support/engines.js';
import { createNotifier, Dispatcher, idempotencyKeyOf, InvalidNotificationError, recordDeliveryEvent, TemplateChannelMissingError, TemplateNotFoundError } from '../../src/index.js';
import { emptyOutbox, KeyHonouringProvider, outboxDatabase, templates, timePasses } from '../support/notify-fixtures.js';

const notify = createNotifier({ templates });
const ada = { email: 'ada@example.com', phone: '+14155550100' };

for (const engine of ENGINES) {
  describe(`outbox on ${engine.name}`, () => {
    const server = useEngine(engine);
    let db: Database;
    let provider: KeyHonouringProvider;
    const statuses = async () => (await db.many<{ recipient: string; status: string }>(sql`SELECT recipient, status FROM fw_notify_outbox ORDER BY recipient`)).map((r) => `${r.recipient}:${r.status}`);

    before(async () => {
      db = await outboxDatabase(server().connection);
      await db.query(sql`CREATE TABLE IF NOT EXISTS tasks (id text PRIMARY KEY, assignee text)`);
    });
    after(async () => db?.end());
    beforeEach(async () => {
      await emptyOutbox(db);
      await db.query(sql`DELETE FROM tasks`);
      provider = new KeyHonouringProvider();
    });

    const dispatcher = (options: Partial<ConstructorParameters<typeof Dispatcher>[0]> = {}) => new Dispatcher({ db, templates, providers: [provider], log: () => undefined, ...options });

    it('writes one row per channel in the caller transaction; after the commit the dispatcher sends each once with the key of its row', async () => {
      const queued = await db.transaction(async (tx) => {
        await tx.query(sql`INSERT INTO tasks VALUES ('t1', 'ada')`);
        return notify.send(tx, { to: ada, template: 'task-assigned', data: { title: 'Ship it', assignee: 'Ada' } });
      });
      expect(queued.ids).to.have.length(2);
      const report = await dispatcher().dispatchIds(queued.ids);
      expect(report).to.deep.equal({ sent: 2, retried: 0, failed: 0, skipped: 0 });
      expect(provider.delivered.map((m) => m.channel).sort()).to.deep.equal(['email', 'sms']);
      expect(provider.calls.map((c) => c.key).sort()).to.deep.equal(queued.ids.map(idempotencyKeyOf).sort());
      const log = await db.many<{ status: string; provider: string; provider_message_id: string }>(sql`SELECT status, provider, provider_message_id FROM fw_notify_delivery_log ORDER BY id`);
      expect(log.map((l) => l.status)).to.deep.equal(['sent', 'sent']);
      expect(log.every((l) => l.provider === 'recording' && l.provider_message_id.startsWith('prov-'))).to.equal(true);
      // A second dispatch of the same ids (a redelivered queue message) sends nothing.
      expect(await dispatcher().dispatchIds(queued.ids)).to.deep.equal({ sent: 0, retried: 0, failed: 0, skipped: 0 });
      expect(provider.calls).to.have.length(2);
    });

    it('a rolled-back transaction leaves no row: the sweeper and the queue consumer send nothing', async () => {
      let ids: readonly string[] = [];
      const error = await db
        .transaction(async (tx) => {
          await tx.query(sql`INSERT INTO tasks VALUES ('t2', 'ada')`);
          ids = (await notify.send(tx, { to: ada, template: 'task-assigned', data: { title: 'Never', assignee: 'Ada' } })).ids;
          throw new Error('assignment refused');
        })
        .catch((e: unknown) => e);
      expect(error).to.have.property('message', 'assignment refused');
      expect(ids).to.have.length(2);
      await timePasses(db);
      expect(await dispatcher().dispatchIds(ids)).to.deep.equal({ sent: 0, retried: 0, failed: 0, skipped: 0 });
      expect(await dispatcher().sweep()).to.deep.equal({ sent: 0, retried: 0, failed: 0, skipped: 0 });
      expect(provider.calls).to.deep.equal([]);
      expect(await db.many(sql`SELECT id FROM fw_notify_outbox`)).to.deep.equal([]);
    });

    it('a dispatcher that dies after the provider accepted and before the status write does not make the row send twice', async () => {
      const { ids } = await db.transaction((tx) => notify.send(tx, { to: { email: ada.email }, template: 'task-assigned', data: { title: 'Once', assignee: 'Ada' } }));
      // The first dispatcher's process stops right after the provider accepted: its status write never happens.
      let die!: () => void;
      provider.afterAccept = () => new Promise<void>((resolve) => (die = resolve));
      const first = dispatcher().dispatchIds(ids);
      while (provider.calls.length === 0) await new Promise((r) => setTimeout(r, 5));
      provider.afterAccept = undefined;
      expect(await statuses()).to.deep.equal(['ada@example.com:sending']);
      // Its claim expires; the sweeper claims the row again and sends with the same provider key.
      await timePasses(db);
      expect(await dispatcher().sweep()).to.deep.equal({ sent: 1, retried: 0, failed: 0, skipped: 0 });
      expect(provider.calls.map((c) => c.key)).to.deep.equal([idempotencyKeyOf(ids[0]!), idempotencyKeyOf(ids[0]!)]);
      expect(provider.delivered).to.have.length(1);
      // The first dispatcher's late write (were it to come) does not touch the row another claim finished.
      die();
      await first;
      expect(await statuses()).to.deep.equal(['ada@example.com:sent']);
      const log = await db.many<{ status: string; attempt: number }>(sql`SELECT status, attempt FROM fw_notify_delivery_log ORDER BY id`);
      expect(log.filter((l) => l.status === 'sent')).to.have.length.greaterThan(0);
      expect(new Set((await db.many<{ provider_message_id: string }>(sql`SELECT provider_message_id FROM fw_notify_delivery_log`)).map((r) => r.provider_message_id)).size).to.equal(1);
    });

    it('every row ends sent or failed: retried with backoff, failed at once on a permanent refusal, failed after maxAttempts', async () => {
      provider.failures.set('flaky@example.com', 2);
      provider.failures.set('gone@example.com', 'permanent');
      provider.failures.set('down@example.com', 99);
      await db.transaction(async (tx) => {
        for (const email of ['ok@example.com', 'flaky@example.com', 'gone@example.com', 'down@example.com']) {
          await notify.send(tx, { to: { email }, template: 'task-assigned', data: { title: 'x', assignee: 'y' } });
        }
      });
      const d = dispatcher({ maxAttempts: 4 });
      for (let round = 0; round < 10; round++) {
        await timePasses(db);
        await d.sweep();
      }
      expect(await statuses()).to.deep.equal(['down@example.com:failed', 'flaky@example.com:sent', 'gone@example.com:failed', 'ok@example.com:sent']);
      const attempts = await db.many<{ recipient: string; attempts: number; last_error: string | null }>(sql`SELECT recipient, attempts, last_error FROM fw_notify_outbox ORDER BY recipient`);
      expect(attempts.map((a) => [a.recipient, a.attempts])).to.deep.equal([['down@example.com', 4], ['flaky@example.com', 3], ['gone@example.com', 1], ['ok@example.com', 1]]);
      expect(attempts[2]!.last_error).to.contain('mailbox does not exist');
      const retries = await db.one<{ n: string }>(sql`SELECT count(*) AS n FROM fw_notify_delivery_log WHERE status = 'retry'`);
      expect(Number(retries.n)).to.equal(2 + 3);
    });

    it('a row whose last attempt never recorded an outcome ends failed without another send', async () => {
      const { ids } = await db.transaction((tx) => notify.send(tx, { to: { email: 'lost@example.com' }, template: 'task-assigned', data: { title: 'x', assignee: 'y' } }));
      // Its last allowed attempt was claimed and its dispatcher never came back.
      await db.query(sql`UPDATE fw_notify_outbox SET status = 'sending', attempts = 3 WHERE id = ${ids[0]}`);
      await timePasses(db);
      expect(await dispatcher({ maxAttempts: 3 }).sweep()).to.deep.equal({ sent: 0, retried: 0, failed: 1, skipped: 0 });
      expect(provider.calls).to.deep.equal([]);
      expect(await statuses()).to.deep.equal(['lost@example.com:failed']);
    });

    it('a retry waits for its backoff: the row is not due again at once', async () => {
      provider.failures.set('flaky@example.com', 1);
      const { ids } = await db.transaction((tx) => notify.send(tx, { to: { email: 'flaky@example.com' }, template: 'task-assigned', data: { title: 'x', assignee: 'y' } }));
      expect(await dispatcher({ retryBaseSeconds: 60 }).dispatchIds(ids)).to.deep.equal({ sent: 0, retried: 1, failed: 0, skipped: 0 });
      expect(await dispatcher().sweep()).to.deep.equal({ sent: 0, retried: 0, failed: 0, skipped: 0 });
      const row = await db.one<{ status: string; wait: number }>(sql`SELECT status, extract(epoch FROM next_attempt_at - now())::float8 AS wait FROM fw_notify_outbox`);
      expect(row.status).to.equal('queued');
      expect(row.wait).to.be.greaterThan(20);
    });

    it('two dispatchers sweeping at once never take the same row (FOR UPDATE SKIP LOCKED)', async () => {
      await db.transaction(async (tx) => {
        for (let i = 0; i < 30; i++) await notify.send(tx, { to: { email: `u${i}@example.com` }, template: 'task-assigned', data: { title: `t${i}`, assignee: 'y' } });
      });
      await timePasses(db);
      const reports = await Promise.all([dispatcher().sweep({ batchSize: 5 }), dispatcher().sweep({ batchSize: 5 })]);
      expect(reports[0]!.sent + reports[1]!.sent).to.equal(30);
      expect(provider.calls).to.have.length(30);
      expect(new Set(provider.calls.map((c) => c.key)).size).to.equal(30);
    });

    it('the same caller idempotency key writes the rows once; provider events move a sent row to delivered or bounced', async () => {
      const first = await db.transaction((tx) => notify.send(tx, { to: ada, template: 'task-assigned', data: { title: 'a', assignee: 'b' }, idempotencyKey: 'assign-t1-ada' }));
      const again = await db.transaction((tx) => notify.send(tx, { to: ada, template: 'task-assigned', data: { title: 'a', assignee: 'b' }, idempotencyKey: 'assign-t1-ada' }));
      expect(first.ids).to.have.length(2);
      expect(again.ids).to.deep.equal([]);
      await dispatcher().dispatchIds(first.ids);
      const sent = await db.many<{ channel: string; provider_message_id: string }>(sql`SELECT channel, provider_message_id FROM fw_notify_outbox ORDER BY channel`);
      expect(await recordDeliveryEvent(db, { providerMessageId: sent[0]!.provider_message_id, status: 'delivered' })).to.equal(true);
      expect(await recordDeliveryEvent(db, { providerMessageId: sent[1]!.provider_message_id, status: 'bounced', detail: 'unknown number' })).to.equal(true);
      expect(await recordDeliveryEvent(db, { providerMessageId: 'nobody', status: 'delivered' })).to.equal(false);
      expect((await db.many<{ status: string }>(sql`SELECT status FROM fw_notify_outbox ORDER BY channel`)).map((r) => r.status)).to.deep.equal(['delivered', 'bounced']);
      expect((await db.many<{ status: string }>(sql`SELECT status FROM fw_notify_delivery_log ORDER BY id`)).map((r) => r.status)).to.deep.equal(['sent', 'sent', 'delivered', 'bounced']);
    });

    it('refuses bad input before writing anything, with coded errors', async () => {
      const attempt = (input: unknown) => db.transaction((tx) => notify.send(tx, input as never)).catch((e: unknown) => e);
      expect(await attempt({ to: ada, template: 'nope', data: {} })).to.be.instanceOf(TemplateNotFoundError);
      expect(await attempt({ to: ada, template: 'task-assigned', data: {}, channels: ['push'] })).to.be.instanceOf(TemplateChannelMissingError);
      expect(await attempt({ to: ada, template: 'task-assigned', data: {}, channels: ['fax'] })).to.be.instanceOf(InvalidNotificationError);
      expect(await attempt({ to: { email: ada.email }, template: 'task-assigned', data: {}, channels: ['sms'] })).to.be.instanceOf(InvalidNotificationError).with.property('message').that.contains('no phone address');
      expect(await attempt({ to: {}, template: 'task-assigned', data: {} })).to.be.instanceOf(InvalidNotificationError);
      expect(await attempt({ to: ada, template: 'task-assigned', data: {}, category: 'Bad Category!' })).to.be.instanceOf(InvalidNotificationError);
      expect(await attempt({ to: { ...ada, locale: 'not a locale' }, template: 'task-assigned', data: {} })).to.be.instanceOf(InvalidNotificationError);
      expect(await db.many(sql`SELECT id FROM fw_notify_outbox`)).to.deep.equal([]);
    });
  });
}
