import { ConflictException, PinpointSMSVoiceV2Client, SendTextMessageCommand } from '@aws-sdk/client-pinpoint-sms-voice-v2';
import { mockClient } from 'aws-sdk-client-mock';
import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { inboundSmsHandler, ProviderError, RecipientSuppressedError, SmsProvider, SuppressionList, type OutgoingMessage } from '../../src/index.js';
import { useChannelsDatabase } from '../support/channels-database.js';
import { snsEvent } from '../support/sns-event.js';

// End User Messaging has no local emulator: the client is mocked with aws-sdk-client-mock; the database is real.
const inbound = JSON.parse(readFileSync(new URL('../fixtures/sns-inbound-sms.json', import.meta.url), 'utf8')) as { originationNumber: string; messageBody: string };

const sms = (to: string): OutgoingMessage => ({ id: '7', channel: 'sms', to, category: 'task assigned', sms: { body: 'You have a new task' } });

describe('SMS provider (End User Messaging)', () => {
  const db = useChannelsDatabase();
  const client = mockClient(PinpointSMSVoiceV2Client);
  afterEach(() => client.reset());
  after(() => client.restore());

  it('sends SendTextMessage as TRANSACTIONAL from the origination identity, the idempotency key in Context', async () => {
    client.on(SendTextMessageCommand).resolves({ MessageId: 'sms-message-id' });
    const provider = new SmsProvider({ originationIdentity: 'pool-abc', configurationSetName: 'notify', client: new PinpointSMSVoiceV2Client({ region: 'us-east-1' }) });
    expect(await provider.send(sms('+14255550100'), { idempotencyKey: 'fw-notify-7' })).to.deep.equal({ providerMessageId: 'sms-message-id' });
    expect(client.commandCalls(SendTextMessageCommand)[0]!.args[0].input).to.deep.equal({
      DestinationPhoneNumber: '+14255550100',
      OriginationIdentity: 'pool-abc',
      MessageBody: 'You have a new task',
      MessageType: 'TRANSACTIONAL',
      ConfigurationSetName: 'notify',
      Context: { idempotencyKey: 'fw-notify-7', category: 'task assigned' },
    });
  });

  it('an inbound STOP suppresses the number: the next send fails with a coded error and makes no call; START lifts it', async () => {
    client.on(SendTextMessageCommand).resolves({ MessageId: 'id' });
    const suppressions = new SuppressionList(db());
    const handle = inboundSmsHandler({ suppressions: () => suppressions });
    expect(await handle(snsEvent(inbound))).to.deep.equal({ actions: ['opt-out'] });
    const provider = new SmsProvider({ originationIdentity: 'pool-abc', client: new PinpointSMSVoiceV2Client({ region: 'us-east-1' }), suppressions: () => suppressions });
    const error = await provider.send(sms(inbound.originationNumber), { idempotencyKey: 'k' }).catch((e: unknown) => e);
    expect(error).to.be.instanceOf(ProviderError).and.include({ retryable: false });
    expect((error as ProviderError).cause).to.be.instanceOf(RecipientSuppressedError).and.include({ reason: 'opted-out' });
    expect(client.commandCalls(SendTextMessageCommand)).to.have.length(0);
    expect(await handle(snsEvent({ ...inbound, messageBody: 'START' }))).to.deep.equal({ actions: ['opt-in'] });
    await provider.send(sms(inbound.originationNumber), { idempotencyKey: 'k' });
    expect(client.commandCalls(SendTextMessageCommand)).to.have.length(1);
  });

  it("End User Messaging's own opt-out answer (DESTINATION_PHONE_NUMBER_OPTED_OUT) is not retried and is remembered", async () => {
    client.on(SendTextMessageCommand).rejects(new ConflictException({ message: 'Destination phone number opted out', Reason: 'DESTINATION_PHONE_NUMBER_OPTED_OUT', $metadata: {} }));
    const suppressions = new SuppressionList(db());
    const provider = new SmsProvider({ originationIdentity: 'pool-abc', client: new PinpointSMSVoiceV2Client({ region: 'us-east-1' }), suppressions: () => suppressions });
    const error = await provider.send(sms('+14255550111'), { idempotencyKey: 'k' }).catch((e: unknown) => e);
    expect(error).to.be.instanceOf(ProviderError).and.include({ retryable: false });
    expect((error as ProviderError).cause).to.have.property('code', 'FW_ERR_NOTIFY_RECIPIENT_SUPPRESSED');
    expect((await suppressions.find('sms', '+1 425 555 0111'))?.reason).to.equal('opted-out');
    await provider.send(sms('+14255550111'), { idempotencyKey: 'k' }).catch(() => undefined);
    expect(client.commandCalls(SendTextMessageCommand)).to.have.length(1);
  });

  it('a message without an sms part is refused without a call', async () => {
    const provider = new SmsProvider({ originationIdentity: 'pool-abc', client: new PinpointSMSVoiceV2Client({ region: 'us-east-1' }) });
    const error = await provider.send({ id: '1', channel: 'sms', to: '+14255550100', category: 'c' }, { idempotencyKey: 'k' }).catch((e: unknown) => e);
    expect((error as ProviderError).cause).to.have.property('code', 'FW_ERR_NOTIFY_MESSAGE_NOT_SENDABLE');
    expect(client.commandCalls(SendTextMessageCommand)).to.have.length(0);
  });
});
