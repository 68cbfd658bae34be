import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { ApiError } from '@framework/runtime/client';
import { startApp, type TestApp } from '@framework/testing';
import { createClient, type Client } from '../src/client.gen.js';
import { MAX_OPEN_ASSIGNMENTS } from '../src/routes/tasks/[id]/assignee/put.js';

interface InboxMessage {
  channel: string;
  to: string;
  email?: { subject: string; html?: string; text?: string };
  sms?: { body: string };
}

/**
 * "Task assigned" through @framework/notify: the assignment and its outbox rows commit together, the dispatcher
 * (the notify-outbox queue consumer) delivers them to fw dev's local inbox, read back at GET /_dev/inbox.
 */
describe('tasks-api notifications: task assigned', function () {
  this.timeout(180_000);
  let app: TestApp<Client>;
  const inbox = async (): Promise<InboxMessage[]> => ((await (await fetch(`${app.url}/_dev/inbox`)).json()) as { messages: InboxMessage[] }).messages;
  const clearInbox = () => fetch(`${app.url}/_dev/inbox`, { method: 'DELETE' });
  // Tasks are seeded straight into the database: these tests are about the assignment route, not task creation.
  const newTask = async (title: string) => (await app.db().seed<{ id: string; title: string }>('tasks', [{ owner: 'grace', title, tenant_id: 'acme' }]))[0]!;

  before(async () => {
    app = await startApp({ root: path.dirname(path.dirname(fileURLToPath(import.meta.url))), client: createClient });
  });
  after(() => app?.stop());
  beforeEach(async () => {
    await app.resetData();
    await clearInbox();
  });

  it('assigning a task sends "task assigned" by email and SMS, in the transaction of the assignment; both reach the inbox', async () => {
    const task = await newTask('Write the release notes');
    const answer = await app.as({ roles: ['admin'], sub: 'grace', tenant: 'acme' }).tasks.byId(task.id).assignee.put({ name: 'Ada', email: 'ada@example.com', phone: '+14155550100' });
    expect(answer).to.include({ taskId: task.id, notifications: 2 });
    await app.drain();
    const messages = await inbox();
    const email = messages.find((m) => m.channel === 'email');
    const sms = messages.find((m) => m.channel === 'sms');
    expect(messages).to.have.length(2);
    expect(email).to.deep.include({ to: 'ada@example.com' });
    expect(email!.email!.subject).to.equal('Task assigned: Write the release notes');
    expect(email!.email!.html).to.contain('Hi Ada,').and.contain('<strong>Write the release notes</strong>');
    expect(email!.email!.text).to.contain('grace assigned you a task: Write the release notes');
    expect(sms).to.deep.include({ to: '+14155550100', sms: { body: 'Task assigned to you: Write the release notes' } });
    const rows = await app.db().query('SELECT channel, status, provider FROM fw_notify_outbox ORDER BY channel');
    expect(rows).to.deep.equal([
      { channel: 'email', status: 'sent', provider: 'smtp' },
      { channel: 'sms', status: 'sent', provider: 'local-inbox' },
    ]);
  });

  it('in the recipient locale', async () => {
    const task = await newTask('Relire le contrat');
    await app.as({ roles: ['admin'], sub: 'grace', tenant: 'acme' }).tasks.byId(task.id).assignee.put({ name: 'Zoé', email: 'zoe@example.com', locale: 'fr-CA' });
    await app.drain();
    const [email, ...others] = await inbox();
    expect(others).to.deep.equal([]);
    expect(email!.email!.subject).to.equal('Tâche assignée : Relire le contrat');
  });

  it('a rolled-back assignment (over the open-task limit: 409) sends nothing', async () => {
    const client = app.as({ roles: ['admin'], sub: 'grace', tenant: 'acme' });
    for (let i = 0; i < MAX_OPEN_ASSIGNMENTS; i++) await client.tasks.byId((await newTask(`task ${i}`)).id).assignee.put({ name: 'Ada', email: 'ada@example.com' });
    await app.drain();
    await clearInbox();
    const extra = await newTask('one too many');
    const refused = await client.tasks.byId(extra.id).assignee.put({ name: 'Ada', email: 'ada@example.com', phone: '+14155550100' }).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(refused).to.be.instanceOf(ApiError).with.property('status', 409);
    // The sweeper too finds nothing to send: the outbox rows rolled back with the assignment.
    await app.clock.advance('30m');
    await app.drain();
    expect(await inbox()).to.deep.equal([]);
    expect(await app.db().query('SELECT count(*)::int AS n FROM fw_notify_outbox')).to.deep.equal([{ n: MAX_OPEN_ASSIGNMENTS }]);
    expect(await app.db().query(`SELECT count(*)::int AS n FROM task_assignees WHERE task_id = '${extra.id}'`)).to.deep.equal([{ n: 0 }]);
  });

  it('the sweeper delivers committed rows nobody dispatched', async () => {
    const task = await newTask('Swept');
    // A commit whose dispatch never happened (the function died right after it): a row written straight to the outbox.
    await app.db().query(`INSERT INTO fw_notify_outbox (channel, recipient, template, data, category, created_at) VALUES ('sms', '+14155550199', 'task-assigned', '{"taskTitle":"Swept","assigneeName":"Bo","assignedBy":"grace"}', 'transactional', now() - interval '5 minutes')`);
    expect(task.title).to.equal('Swept');
    await app.clock.advance('10m');
    await app.drain();
    expect((await inbox()).map((m) => m.sms?.body)).to.deep.equal(['Task assigned to you: Swept']);
  });

  it('STOP from the assignee\'s phone (the inbound-sms function, with the SNS event of a two-way SMS) is honoured: the next SMS is not sent, the email still is', async () => {
    // AWS's documented two-way SMS message, as the phone number's SNS topic delivers it to the function.
    const reply = (body: string) => ({
      Records: [{ EventSource: 'aws:sns', Sns: { Type: 'Notification', TopicArn: 'arn:aws:sns:us-east-1:123456789012:tasks-inbound-sms', Message: JSON.stringify({ originationNumber: '+14155550100', destinationNumber: '+12125550101', messageKeyword: 'KEYWORD_123456789012', messageBody: body, inboundMessageId: 'cae173d2-66b9-564c-8309-21f858e9fb84' }) } }],
    });
    expect(await app.invoke('inbound-sms', reply('Stop'))).to.deep.equal({ ok: true, value: { actions: ['opt-out'] } });
    const client = app.as({ roles: ['admin'], sub: 'grace', tenant: 'acme' });
    await client.tasks.byId((await newTask('After STOP')).id).assignee.put({ name: 'Ada', email: 'ada@example.com', phone: '+14155550100' });
    await app.drain();
    expect((await inbox()).map((m) => `${m.channel}:${m.to}`)).to.deep.equal(['email:ada@example.com']);
    expect(await app.db().query('SELECT channel, status FROM fw_notify_outbox ORDER BY channel')).to.deep.equal([
      { channel: 'email', status: 'sent' },
      { channel: 'sms', status: 'suppressed' },
    ]);
    // START lifts it: the next assignment's SMS reaches the inbox again.
    expect(await app.invoke('inbound-sms', reply('START'))).to.deep.equal({ ok: true, value: { actions: ['opt-in'] } });
    await client.tasks.byId((await newTask('After START')).id).assignee.put({ name: 'Ada', email: 'ada@example.com', phone: '+14155550100' });
    await app.drain();
    expect((await inbox()).filter((m) => m.channel === 'sms').map((m) => m.sms?.body)).to.deep.equal(['Task assigned to you: After START']);
  });

  it('refuses a bad assignee with 400, and posts to the inbox without the run secret with 401', async () => {
    const task = await newTask('x');
    const bad = await app.as({ roles: ['admin'], sub: 'grace', tenant: 'acme' }).tasks.byId(task.id).assignee.put({ name: 'Ada', email: 'not-an-email' }).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(bad).to.be.instanceOf(ApiError).with.property('status', 400);
    const forged = await fetch(`${app.url}/_dev/inbox/messages`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ channel: 'sms', to: '+1', idempotencyKey: 'k', sms: { body: 'hi' } }) });
    expect(forged.status).to.equal(401);
    expect(((await forged.json()) as { error: { code: string } }).error.code).to.equal('INBOX_TOKEN_REQUIRED');
  });
});
