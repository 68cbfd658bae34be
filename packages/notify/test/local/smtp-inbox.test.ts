import { expect } from 'chai';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { idempotencyKeyOf, ProviderError, renderMessage, smtpProvider } from '../../src/index.js';
import { InboxPostError, LocalInbox } from '../../src/local/index.js';
import { templates } from '../support/notify-fixtures.js';

describe('SMTP provider into the local inbox (a real SMTP server in process)', () => {
  let dir: string;
  let inbox: LocalInbox;
  let smtp: ReturnType<typeof smtpProvider>;

  before(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'fw-inbox-'));
    inbox = await LocalInbox.start({ dataDir: dir, host: '127.0.0.1', token: 'secret-token' });
    smtp = smtpProvider({ host: '127.0.0.1', port: inbox.smtpPort, from: '"Tasks" <no-reply@tasks.example>' });
  });
  after(async () => {
    smtp?.close();
    await inbox?.stop();
    await rm(dir, { recursive: true, force: true });
  });
  beforeEach(() => inbox.clear());

  it('delivers a rendered email end to end: the inbox parses subject, HTML, text and the Message-ID derived from the row key', async () => {
    const message = await renderMessage(templates, { id: 'row-1', channel: 'email', to: 'ada@example.com', template: 'task-assigned', category: 'transactional', data: { title: 'Ship it', assignee: 'Ada' } });
    const result = await smtp.send(message, { idempotencyKey: idempotencyKeyOf('row-1') });
    expect(result.providerMessageId).to.equal('<fw-notify-row-1@tasks.example>');
    const [received, ...others] = inbox.list();
    expect(others).to.deep.equal([]);
    expect(received).to.deep.include({ channel: 'email', to: 'ada@example.com' });
    expect(received!.email).to.include({ subject: 'Assigned: Ship it', messageId: '<fw-notify-row-1@tasks.example>' });
    expect(received!.email!.from).to.contain('no-reply@tasks.example');
    expect(received!.email!.html).to.contain('<b>Ship it</b>');
    expect(received!.email!.text).to.contain('Ada, you have a new task: Ship it');
  });

  it('a resend of the same outbox row (same key, same Message-ID) shows up once', async () => {
    const message = await renderMessage(templates, { id: 'row-2', channel: 'email', to: 'ada@example.com', template: 'task-assigned', category: 'transactional', data: { title: 'Once', assignee: 'Ada' } });
    await smtp.send(message, { idempotencyKey: idempotencyKeyOf('row-2') });
    await smtp.send(message, { idempotencyKey: idempotencyKeyOf('row-2') });
    expect(inbox.list()).to.have.length(1);
    await smtp.send({ ...message, id: 'row-3' }, { idempotencyKey: idempotencyKeyOf('row-3') });
    expect(inbox.list()).to.have.length(2);
  });

  it("keeps an email fw dev sends itself (an invitation) as its SMTP server would, on disk across a restart", async () => {
    const received = await inbox.receiveEmail({ to: 'lee@example.com', from: 'no-reply@verificationemail.com', subject: 'Your temporary password', text: 'Your username is lee@example.com and temporary password is Tmp-1.' });
    expect(received).to.deep.include({ channel: 'email', to: 'lee@example.com' });
    expect(inbox.list()[0]!.email).to.include({ subject: 'Your temporary password', text: 'Your username is lee@example.com and temporary password is Tmp-1.' });
    const again = await LocalInbox.start({ dataDir: dir, host: '127.0.0.1', token: 'other' });
    try {
      expect(again.list().map((m) => [m.to, m.email?.subject])).to.deep.include(['lee@example.com', 'Your temporary password']);
    } finally {
      await again.stop();
    }
  });

  it('keeps SMS, WhatsApp and push posts, drops a repeated key, and refuses malformed posts', async () => {
    expect((await inbox.post({ channel: 'sms', to: '+14155550100', idempotencyKey: 'k1', sms: { body: 'New task: Ship it' } })).duplicate).to.equal(false);
    expect((await inbox.post({ channel: 'sms', to: '+14155550100', idempotencyKey: 'k1', sms: { body: 'New task: Ship it' } })).duplicate).to.equal(true);
    await inbox.post({ channel: 'push', to: 'device-1', idempotencyKey: 'k2', push: { title: 'Hi', body: 'there' } });
    expect(inbox.list().map((m) => m.channel)).to.deep.equal(['push', 'sms']);
    for (const bad of [null, [], { channel: 'email', to: 'a', idempotencyKey: 'k', email: {} }, { channel: 'sms', to: '', idempotencyKey: 'k', sms: { body: 'x' } }, { channel: 'sms', to: 'a', idempotencyKey: 'k3' }, { channel: 'push', to: 'a', idempotencyKey: 'k4', push: { title: 1, body: 'x' } }]) {
      expect(await inbox.post(bad).catch((e: unknown) => e), JSON.stringify(bad)).to.be.instanceOf(InboxPostError).with.property('status', 400);
    }
    expect(inbox.acceptsToken('secret-token')).to.equal(true);
    expect(inbox.acceptsToken('secret-tokeN')).to.equal(false);
    expect(inbox.acceptsToken(undefined)).to.equal(false);
  });

  it('keeps what it accepted across a restart (messages.jsonl), and a clear', async () => {
    await inbox.post({ channel: 'sms', to: '+14155550100', idempotencyKey: 'kept', sms: { body: 'still here' } });
    await inbox.stop();
    inbox = await LocalInbox.start({ dataDir: dir, host: '127.0.0.1', token: 'secret-token' });
    smtp.close();
    smtp = smtpProvider({ host: '127.0.0.1', port: inbox.smtpPort, from: '"Tasks" <no-reply@tasks.example>' });
    expect(inbox.list().map((m) => m.sms?.body)).to.deep.equal(['still here']);
    expect((await inbox.post({ channel: 'sms', to: '+14155550100', idempotencyKey: 'kept', sms: { body: 'still here' } })).duplicate).to.equal(true);
  });

  it('an SMTP server that refuses the recipient is a non-retryable provider error; no server is a retryable one', async () => {
    const { SMTPServer } = await import('smtp-server');
    const refusing = new SMTPServer({ authOptional: true, disabledCommands: ['STARTTLS'], logger: false, onRcptTo: (_address, _session, callback) => callback(Object.assign(new Error('no such mailbox'), { responseCode: 550 })) });
    await new Promise<void>((resolve) => refusing.listen(0, '127.0.0.1', resolve));
    const port = (refusing.server.address() as { port: number }).port;
    const message = await renderMessage(templates, { id: 'row-4', channel: 'email', to: 'gone@example.com', template: 'task-assigned', category: 'transactional', data: { title: 'x', assignee: 'y' } });
    const refusal = smtpProvider({ host: '127.0.0.1', port, from: 'no-reply@tasks.example' });
    try {
      const error = await refusal.send(message, { idempotencyKey: 'k' }).catch((e: unknown) => e);
      expect(error).to.be.instanceOf(ProviderError).with.property('retryable', false);
    } finally {
      refusal.close();
      await new Promise<void>((resolve) => refusing.close(() => resolve()));
    }
    const nobody = smtpProvider({ host: '127.0.0.1', port, from: 'no-reply@tasks.example' });
    const error = await nobody.send(message, { idempotencyKey: 'k' }).catch((e: unknown) => e);
    nobody.close();
    expect(error).to.be.instanceOf(ProviderError).with.property('retryable', true);
  });
});
