import { MessageRejected, SendEmailCommand, SESv2Client, TooManyRequestsException } from '@aws-sdk/client-sesv2';
import { mockClient } from 'aws-sdk-client-mock';
import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { idempotencyKeyOf, ProviderError, RecipientSuppressedError, SesEmailProvider, sesEventHandler, SuppressionList, type OutgoingMessage } from '../../src/index.js';
import { useChannelsDatabase } from '../support/channels-database.js';
import { snsEvent } from '../support/sns-event.js';

// SES has no local emulator: the client is mocked with aws-sdk-client-mock; the database is real (PGlite).
const fixture = (name: string): unknown => JSON.parse(readFileSync(new URL(`../fixtures/${name}`, import.meta.url), 'utf8'));

function emailTo(to: string, id = '42'): OutgoingMessage {
  return {
    id,
    channel: 'email',
    to,
    category: 'task assigned',
    email: { subject: 'A task for you', html: '<p>Hi</p>', text: 'Hi', headers: { 'List-Unsubscribe': '<https://app.example.com/u?token=t>', 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' } },
  };
}

describe('SES email provider', () => {
  const db = useChannelsDatabase();
  const ses = mockClient(SESv2Client);
  afterEach(() => ses.reset());
  after(() => ses.restore());

  it('sends SendEmail with the configuration set, the idempotency key as tag and header, and the unsubscribe headers', async () => {
    ses.on(SendEmailCommand).resolves({ MessageId: '0100018c-ses-id' });
    const provider = new SesEmailProvider({ from: '"Tasks" <no-reply@example.com>', configurationSetName: 'tasks-prod-notify', client: new SESv2Client({ region: 'us-east-1' }) });
    const result = await provider.send(emailTo('ada@example.com'), { idempotencyKey: idempotencyKeyOf('42') });
    expect(result).to.deep.equal({ providerMessageId: '0100018c-ses-id' });
    const [call] = ses.commandCalls(SendEmailCommand);
    expect(call!.args[0].input).to.deep.equal({
      FromEmailAddress: '"Tasks" <no-reply@example.com>',
      Destination: { ToAddresses: ['ada@example.com'] },
      Content: {
        Simple: {
          Subject: { Data: 'A task for you', Charset: 'UTF-8' },
          Body: { Html: { Data: '<p>Hi</p>', Charset: 'UTF-8' }, Text: { Data: 'Hi', Charset: 'UTF-8' } },
          Headers: [
            { Name: 'List-Unsubscribe', Value: '<https://app.example.com/u?token=t>' },
            { Name: 'List-Unsubscribe-Post', Value: 'List-Unsubscribe=One-Click' },
            { Name: 'X-Fw-Idempotency-Key', Value: 'fw-notify-42' },
          ],
        },
      },
      ConfigurationSetName: 'tasks-prod-notify',
      // Tag values allow only letters, digits and _ - . @: the space of the category is replaced.
      EmailTags: [
        { Name: 'fw-idempotency-key', Value: 'fw-notify-42' },
        { Name: 'fw-category', Value: 'task_assigned' },
      ],
    });
  });

  it('a rejected message is not retryable; throttling is', async () => {
    const provider = new SesEmailProvider({ from: 'no-reply@example.com', configurationSetName: 'cs', client: new SESv2Client({ region: 'us-east-1' }) });
    ses.on(SendEmailCommand).rejects(new MessageRejected({ message: 'Email address is not verified.', $metadata: {} }));
    const rejected = await provider.send(emailTo('ada@example.com'), { idempotencyKey: 'k' }).catch((e: unknown) => e);
    expect(rejected).to.be.instanceOf(ProviderError).and.include({ retryable: false, code: 'FW_ERR_NOTIFY_PROVIDER' });
    ses.on(SendEmailCommand).rejects(new TooManyRequestsException({ message: 'Maximum sending rate exceeded.', $metadata: {} }));
    const throttled = await provider.send(emailTo('ada@example.com'), { idempotencyKey: 'k' }).catch((e: unknown) => e);
    expect(throttled).to.be.instanceOf(ProviderError).and.include({ retryable: true });
  });

  it('a permanent bounce (SNS-delivered SES event) suppresses the address: the next send fails without calling SES', async () => {
    ses.on(SendEmailCommand).resolves({ MessageId: 'id' });
    const suppressions = new SuppressionList(db());
    const seen: string[] = [];
    const handle = sesEventHandler({ suppressions: () => suppressions, onEvent: (e) => void seen.push(`${e.eventType}:${e.tags['fw-idempotency-key']?.[0]}`) });
    expect(await handle(snsEvent(fixture('ses-bounce-event.json')))).to.deep.equal({ suppressed: 1, logged: 0 });
    expect(seen).to.deep.equal(['Bounce:fw-notify-42']);
    const provider = new SesEmailProvider({ from: 'no-reply@example.com', configurationSetName: 'cs', client: new SESv2Client({ region: 'us-east-1' }), suppressions: () => suppressions });
    // The bounce reported "Recipient@Example.com": addresses compare without case.
    const error = await provider.send(emailTo('recipient@example.com'), { idempotencyKey: 'k' }).catch((e: unknown) => e);
    expect(error).to.be.instanceOf(ProviderError).and.include({ retryable: false });
    expect((error as ProviderError).cause).to.be.instanceOf(RecipientSuppressedError).and.include({ code: 'FW_ERR_NOTIFY_RECIPIENT_SUPPRESSED', reason: 'bounce' });
    expect(ses.commandCalls(SendEmailCommand)).to.have.length(0);
    await provider.send(emailTo('someone-else@example.com'), { idempotencyKey: 'k2' });
    expect(ses.commandCalls(SendEmailCommand)).to.have.length(1);
  });

  it('a complaint (EventBridge-delivered) suppresses; a transient bounce does not', async () => {
    const suppressions = new SuppressionList(db());
    const handle = sesEventHandler({ suppressions: () => suppressions });
    await handle({ version: '0', id: 'e1', 'detail-type': 'Email Complained', source: 'aws.ses', account: '123456789012', time: '2017-08-05T00:41:02Z', region: 'us-east-1', resources: [], detail: fixture('ses-complaint-event.json') });
    expect((await suppressions.find('email', 'complainer@example.com'))?.reason).to.equal('complaint');
    const transient = fixture('ses-bounce-event.json') as { bounce: { bounceType: string; bouncedRecipients: { emailAddress: string }[] } };
    transient.bounce.bounceType = 'Transient';
    transient.bounce.bouncedRecipients[0]!.emailAddress = 'full-mailbox@example.com';
    expect(await handle(snsEvent(transient))).to.deep.equal({ suppressed: 0, logged: 0 });
    expect(await suppressions.find('email', 'full-mailbox@example.com')).to.equal(undefined);
  });

  it('refuses an event it cannot read with FW_ERR_NOTIFY_UNREADABLE_EVENT', async () => {
    const handle = sesEventHandler({ suppressions: () => new SuppressionList(db()) });
    const error = await handle({ Records: [{ Sns: { Message: 'not json' } }] }).catch((e: unknown) => e);
    expect(error).to.have.property('code', 'FW_ERR_NOTIFY_UNREADABLE_EVENT');
  });
});
