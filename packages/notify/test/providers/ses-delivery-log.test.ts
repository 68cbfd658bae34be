import { SendEmailCommand, SESv2Client } from '@aws-sdk/client-sesv2';
import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { sql, type Database } from '@framework/data';
import { ENGINES, useEngine } from '../../../data/test/support/engines.js';
import { createNotifier, Dispatcher, SesEmailProvider, sesEventHandler, SuppressionList } from '../../src/index.js';
import { emptyOutbox, outboxDatabase, templates } from '../support/notify-fixtures.js';
import { snsEvent } from '../support/sns-event.js';

// SES has no local emulator: its client is a stub answering SendEmail; the events are AWS's documented samples
// (test/fixtures), delivered the way the configuration set's SNS destination delivers them; the database is real.
type SesSample = { mail: { messageId: string; destination: string[] } };
const fixture = (name: string): SesSample => JSON.parse(readFileSync(new URL(`../fixtures/${name}`, import.meta.url), 'utf8')) as SesSample;
const notify = createNotifier({ templates });

describe('SES delivery events in the delivery log', () => {
  const server = useEngine(ENGINES[0]!);
  let db: Database;

  before(async () => {
    db = await outboxDatabase(server().connection);
  });
  after(async () => db?.end());
  beforeEach(() => emptyOutbox(db));

  /** Sends one email through the SES provider; SES answers with the message id the sample event carries. */
  async function sendAs(sample: SesSample): Promise<string> {
    // A client whose send answers as SES does (another suite mocks SESv2Client's prototype with aws-sdk-client-mock,
    // whose instance mocks would undo that one).
    const client = { send: async (command: unknown) => (command instanceof SendEmailCommand ? { MessageId: sample.mail.messageId } : Promise.reject(new Error('unexpected command'))) } as unknown as SESv2Client;
    const provider = new SesEmailProvider({ from: 'no-reply@example.com', configurationSetName: 'ConfigSet', client });
    const { ids } = await db.transaction((tx) => notify.send(tx, { to: { email: sample.mail.destination[0]! }, template: 'task-assigned', data: { title: 't', assignee: 'a' } }));
    await new Dispatcher({ db, templates, providers: [provider], log: () => undefined }).dispatchIds(ids);
    return ids[0]!;
  }

  const handler = () => sesEventHandler({ suppressions: () => new SuppressionList(db), deliveryLog: () => db });
  const logOf = async (id: string) =>
    (await db.many<{ status: string; provider: string; provider_message_id: string; detail: string | null }>(sql`SELECT status, provider, provider_message_id, detail FROM fw_notify_delivery_log WHERE outbox_id = ${id} ORDER BY id`)).map(
      (l) => [l.status, l.provider, l.provider_message_id, l.detail],
    );
  const statusOf = async (id: string) => (await db.one<{ status: string }>(sql`SELECT status FROM fw_notify_outbox WHERE id = ${id}`)).status;

  it('Delivery moves the sent row to delivered, with the provider message id and the SMTP answer', async () => {
    const sample = fixture('ses-delivery-event.json');
    const id = await sendAs(sample);
    expect(await handler()(snsEvent(sample))).to.deep.equal({ suppressed: 0, logged: 1 });
    expect(await statusOf(id)).to.equal('delivered');
    expect(await logOf(id)).to.deep.equal([
      ['sent', 'ses', sample.mail.messageId, null],
      ['delivered', 'ses', sample.mail.messageId, '250 2.6.0 Message received'],
    ]);
  });

  it('Bounce moves it to bounced (with the bounce type) and suppresses the address; a late Delivery does not undo it', async () => {
    const bounce = fixture('ses-bounce-event.json');
    const id = await sendAs(bounce);
    expect(await handler()(snsEvent(bounce))).to.deep.equal({ suppressed: 1, logged: 1 });
    const lateDelivery = { ...fixture('ses-delivery-event.json'), mail: bounce.mail };
    expect(await handler()(snsEvent(lateDelivery))).to.deep.equal({ suppressed: 0, logged: 1 });
    expect(await statusOf(id)).to.equal('bounced');
    expect((await logOf(id)).map(([status, , , detail]) => `${status}:${detail}`)).to.deep.equal(['sent:null', 'bounced:Permanent/General', 'delivered:250 2.6.0 Message received']);
  });

  it('Complaint moves it to complained with the feedback type; an event for a message this outbox never sent changes nothing', async () => {
    const complaint = fixture('ses-complaint-event.json');
    const id = await sendAs(complaint);
    const stranger = { ...complaint, mail: { ...complaint.mail, messageId: 'EXAMPLE-not-ours-000000' } };
    expect(await handler()(snsEvent(complaint, stranger))).to.deep.equal({ suppressed: 2, logged: 1 });
    expect(await statusOf(id)).to.equal('complained');
    expect((await logOf(id)).map(([status, , messageId, detail]) => `${status}:${messageId === complaint.mail.messageId}:${detail}`)).to.deep.equal(['sent:true:null', 'complained:true:abuse']);
  });
});
