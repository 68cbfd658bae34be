import { DependencyException, SendWhatsAppMessageCommand, SocialMessagingClient, ValidationException } from '@aws-sdk/client-socialmessaging';
import { mockClient } from 'aws-sdk-client-mock';
import { expect } from 'chai';
import { ProviderError, SuppressionList, WhatsAppProvider, WhatsAppSessionStore, whatsappEventHandler, type OutgoingMessage, type WhatsAppStatus } from '../../src/index.js';
import { snsEvent } from '../support/sns-event.js';
import { useChannelsDatabase } from '../support/channels-database.js';

// End User Messaging Social has no local emulator: the client is mocked with aws-sdk-client-mock; the database is real.
const now = new Date('2026-03-01T12:00:00Z');
const hoursAgo = (h: number) => new Date(now.getTime() - h * 3600_000);

const message = (to: string, parts: OutgoingMessage['whatsapp'] = { body: 'Your task "Ship it" was assigned to you', template: { name: 'task_assigned', language: 'en_US', parameters: ['Ship it'] } }): OutgoingMessage => ({
  id: '9',
  channel: 'whatsapp',
  to,
  category: 'task assigned',
  whatsapp: parts,
});

function sentBodies(client: ReturnType<typeof mockClient>): Record<string, unknown>[] {
  return client.commandCalls(SendWhatsAppMessageCommand).map((call) => {
    const input = call.args[0].input as { message: Uint8Array; originationPhoneNumberId: string; metaApiVersion: string };
    expect(input.originationPhoneNumberId).to.equal('phone-number-id-0123456789abcdef');
    expect(input.metaApiVersion).to.equal('v20.0');
    return JSON.parse(new TextDecoder().decode(input.message)) as Record<string, unknown>;
  });
}

describe('WhatsApp provider (End User Messaging Social)', () => {
  const db = useChannelsDatabase();
  const client = mockClient(SocialMessagingClient);
  afterEach(() => client.reset());
  after(() => client.restore());

  const provider = () =>
    new WhatsAppProvider({ originationPhoneNumberId: 'phone-number-id-0123456789abcdef', windows: new WhatsAppSessionStore(db()), client: new SocialMessagingClient({ region: 'us-east-1' }), now: () => now });

  it('inside the 24-hour window sends a session (text) message', async () => {
    client.on(SendWhatsAppMessageCommand).resolves({ messageId: 'wamid.1' });
    await new WhatsAppSessionStore(db()).recordInbound('+14255550001', hoursAgo(23.9));
    expect(await provider().send(message('+14255550001'), { idempotencyKey: 'fw-notify-9' })).to.deep.equal({ providerMessageId: 'wamid.1' });
    expect(sentBodies(client)).to.deep.equal([
      { messaging_product: 'whatsapp', recipient_type: 'individual', to: '+14255550001', type: 'text', text: { preview_url: false, body: 'Your task "Ship it" was assigned to you' }, biz_opaque_callback_data: 'fw-notify-9' },
    ]);
  });

  it('outside the window (or with no inbound message at all) sends the template', async () => {
    client.on(SendWhatsAppMessageCommand).resolves({ messageId: 'wamid.2' });
    await new WhatsAppSessionStore(db()).recordInbound('+14255550002', hoursAgo(24));
    await provider().send(message('+14255550002'), { idempotencyKey: 'k' });
    await provider().send(message('+14255550003'), { idempotencyKey: 'k' });
    const template = (to: string) => ({
      messaging_product: 'whatsapp',
      recipient_type: 'individual',
      to,
      type: 'template',
      template: { name: 'task_assigned', language: { code: 'en_US' }, components: [{ type: 'body', parameters: [{ type: 'text', text: 'Ship it' }] }] },
      biz_opaque_callback_data: 'k',
    });
    expect(sentBodies(client)).to.deep.equal([template('+14255550002'), template('+14255550003')]);
  });

  it('falls back to the template when Meta refuses the session message with 131047', async () => {
    await new WhatsAppSessionStore(db()).recordInbound('+14255550004', hoursAgo(1));
    client
      .on(SendWhatsAppMessageCommand)
      .rejectsOnce(new DependencyException({ message: '(#131047) Re-engagement message: More than 24 hours have passed since the recipient last replied to the sender number.', $metadata: {} }))
      .resolves({ messageId: 'wamid.3' });
    expect(await provider().send(message('+14255550004'), { idempotencyKey: 'k' })).to.deep.equal({ providerMessageId: 'wamid.3' });
    expect(sentBodies(client).map((b) => b['type'])).to.deep.equal(['text', 'template']);
  });

  it('outside the window without a template: a coded, non-retryable error and no call', async () => {
    const error = await provider().send(message('+14255550005', { body: 'only free text' }), { idempotencyKey: 'k' }).catch((e: unknown) => e);
    expect(error).to.be.instanceOf(ProviderError).and.include({ retryable: false });
    expect((error as ProviderError).cause).to.have.property('code', 'FW_ERR_NOTIFY_MESSAGE_NOT_SENDABLE');
    expect(client.commandCalls(SendWhatsAppMessageCommand)).to.have.length(0);
  });

  it('another refusal is not retried; a late inbound event never moves the window back', async () => {
    client.on(SendWhatsAppMessageCommand).rejects(new ValidationException({ message: 'Invalid phone number', $metadata: {} }));
    const error = await provider().send(message('+14255550006'), { idempotencyKey: 'k' }).catch((e: unknown) => e);
    expect(error).to.be.instanceOf(ProviderError).and.include({ retryable: false });
    const sessions = new WhatsAppSessionStore(db());
    await sessions.recordInbound('+14255550007', hoursAgo(1));
    await sessions.recordInbound('+14255550007', hoursAgo(30));
    expect(await sessions.lastInbound('+14255550007')).to.deep.equal(hoursAgo(1));
  });

  it('the events handler opens the window on an inbound message, honours STOP, and reports 131047 statuses', async () => {
    const entry = {
      id: '1234567890abcde',
      changes: [
        {
          field: 'messages',
          value: {
            messaging_product: 'whatsapp',
            metadata: { display_phone_number: '12065550100', phone_number_id: 'abcde1234567890' },
            contacts: [{ profile: { name: 'Ada' }, wa_id: '14255550008' }],
            messages: [{ from: '14255550008', id: 'wamid.in1', timestamp: String(hoursAgo(2).getTime() / 1000), type: 'text', text: { body: 'STOP' } }],
            statuses: [{ id: 'wamid.out1', status: 'failed', timestamp: '1740830400', recipient_id: '14255550009', biz_opaque_callback_data: 'fw-notify-9', errors: [{ code: 131047, title: 'Re-engagement message' }] }],
          },
        },
      ],
    };
    const event = snsEvent({
      context: { MetaWabaIds: [{ wabaId: '1234567890abcde', arn: 'arn:aws:social-messaging:us-east-1:123456789012:waba/fb2594b8a7974770b128a409e2example' }], MetaPhoneNumberIds: [{ metaPhoneNumberId: 'abcde1234567890', arn: 'arn:aws:social-messaging:us-east-1:123456789012:phone-number-id/976c72a700aac43eaf573ae050example' }] },
      whatsAppWebhookEntry: JSON.stringify(entry),
      aws_account_id: '123456789012',
      message_timestamp: '2026-03-01T10:00:00.000000000Z',
      messageId: '6d69f07a-c317-4278-9d5c-6a84078419ec',
    });
    const statuses: WhatsAppStatus[] = [];
    const suppressions = new SuppressionList(db());
    const handle = whatsappEventHandler({ sessions: () => new WhatsAppSessionStore(db()), suppressions: () => suppressions, onStatus: (s) => void statuses.push(s) });
    expect(await handle(event)).to.deep.equal({ inbound: 1, statuses: 1 });
    expect(await new WhatsAppSessionStore(db()).lastInbound('+14255550008')).to.deep.equal(hoursAgo(2));
    expect((await suppressions.find('whatsapp', '+14255550008'))?.reason).to.equal('opted-out');
    expect(statuses).to.deep.equal([{ providerMessageId: 'wamid.out1', status: 'failed', recipient: '+14255550009', idempotencyKey: 'fw-notify-9', errorCodes: [131047], outsideWindow: true }]);
    const withList = new WhatsAppProvider({ originationPhoneNumberId: 'phone-number-id-0123456789abcdef', windows: new WhatsAppSessionStore(db()), client: new SocialMessagingClient({ region: 'us-east-1' }), now: () => now, suppressions: () => suppressions });
    const error = await withList.send(message('+14255550008'), { idempotencyKey: 'k' }).catch((e: unknown) => e);
    expect((error as ProviderError).cause).to.have.property('code', 'FW_ERR_NOTIFY_RECIPIENT_SUPPRESSED');
    expect(client.commandCalls(SendWhatsAppMessageCommand)).to.have.length(0);
  });
});
