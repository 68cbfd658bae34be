import { expect } from 'chai';
import * as http from 'node:http';
import { Database } from '@framework/data';
import { migrate, parseMigration } from '@framework/data/migrations';
import { startPglite, type RunningEngine } from '../../../data/test/support/pglite-server.js';
import { CHANNELS_MIGRATION, idempotencyKeyOf, LocalChannelRules, localInboxProviders, ProviderError, SuppressionList, WhatsAppSessionStore, type OutgoingMessage } from '../../src/index.js';
import { INBOX_TOKEN_HEADER, LocalInbox } from '../../src/local/index.js';

/**
 * The local providers apply the cloud's channel rules (`LocalChannelRules` on a real database): a number that sent
 * STOP is refused as End User Messaging refuses it, and a WhatsApp message is recorded as the kind the 24-hour window
 * allows. The dev server's inbox endpoint is stood in for by a loopback server that hands posts to the inbox.
 */
describe('local inbox providers with the channel rules', () => {
  let engine: RunningEngine;
  let db: Database;
  let inbox: LocalInbox;
  let devServer: http.Server;
  let rules: LocalChannelRules;
  let env: NodeJS.ProcessEnv;

  before(async function () {
    this.timeout(90_000);
    engine = await startPglite();
    db = new Database({ connection: engine.connection, logger: { warn: () => undefined } });
    await migrate(db, { migrations: [parseMigration('0001_notify_channels.sql', CHANNELS_MIGRATION)] });
    inbox = await LocalInbox.start({ host: '127.0.0.1', token: 'run-secret' });
    devServer = http.createServer((req, res) => {
      let body = '';
      req.setEncoding('utf8').on('data', (c: string) => (body += c)).on('end', () => {
        if (!inbox.acceptsToken(req.headers[INBOX_TOKEN_HEADER])) return res.writeHead(401).end('{}');
        inbox.post(JSON.parse(body)).then(
          ({ message, duplicate }) => res.writeHead(duplicate ? 200 : 201, { 'content-type': 'application/json' }).end(JSON.stringify({ id: message.id })),
          (error: Error) => res.writeHead(400).end(JSON.stringify({ error: { message: error.message } })),
        );
      });
    });
    await new Promise<void>((resolve) => devServer.listen(0, '127.0.0.1', resolve));
    env = { FW_DEV_ENDPOINT: `http://127.0.0.1:${(devServer.address() as { port: number }).port}`, FW_DEV_INBOX_TOKEN: 'run-secret', FW_DEV_SMTP_PORT: String(inbox.smtpPort) };
    rules = new LocalChannelRules({ suppressions: new SuppressionList(db), sessions: new WhatsAppSessionStore(db) });
  });
  after(async () => {
    await new Promise<void>((resolve) => devServer?.close(() => resolve()));
    await inbox?.stop();
    await db?.end();
    await engine?.stop();
  });

  const sms = (to: string): OutgoingMessage => ({ id: `sms-${to}`, channel: 'sms', to, category: 'transactional', sms: { body: 'Your code is 1234' } });
  const whatsapp = (id: string): OutgoingMessage => ({ id, channel: 'whatsapp', to: '+14155550123', category: 'transactional', whatsapp: { body: 'Your order shipped', template: { name: 'order_shipped', language: 'en', parameters: ['42'] } } });

  it('refuses an SMS to a number that replied STOP (not retryable), and delivers again after START', async () => {
    const [, messages] = localInboxProviders({ env, rules });
    await rules.receiveReply({ channel: 'sms', from: '+14155550100', body: 'STOP' });
    const refused = await messages!.send(sms('+14155550100'), { idempotencyKey: idempotencyKeyOf('a') }).catch((e: unknown) => e);
    expect(refused).to.be.instanceOf(ProviderError).with.property('retryable', false);
    expect(inbox.list()).to.deep.equal([]);
    await rules.receiveReply({ channel: 'sms', from: '+14155550100', body: 'START' });
    await messages!.send(sms('+14155550100'), { idempotencyKey: idempotencyKeyOf('b') });
    expect(inbox.list().map((m) => m.sms?.body)).to.deep.equal(['Your code is 1234']);
  });

  it('records a WhatsApp message as a template outside the 24-hour window and as a session message once the customer wrote', async () => {
    const [, messages] = localInboxProviders({ env, rules });
    await messages!.send(whatsapp('w1'), { idempotencyKey: idempotencyKeyOf('w1') });
    await rules.receiveReply({ channel: 'whatsapp', from: '+14155550123', body: 'where is my order?' });
    await messages!.send(whatsapp('w2'), { idempotencyKey: idempotencyKeyOf('w2') });
    expect(inbox.list().filter((m) => m.channel === 'whatsapp').map((m) => m.whatsappKind)).to.deep.equal(['session', 'template']);
  });
});
