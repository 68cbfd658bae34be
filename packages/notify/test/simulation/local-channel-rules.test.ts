import { expect } from 'chai';
import { LocalChannelRules, ProviderError, SuppressionList, WhatsAppSessionStore, type OutgoingMessage } from '../../src/index.js';
import { useChannelsDatabase } from '../support/channels-database.js';

describe('local channel rules (what fw dev simulates of the cloud)', () => {
  const db = useChannelsDatabase();
  let now = new Date('2026-03-01T12:00:00Z');
  const rules = () => new LocalChannelRules({ suppressions: new SuppressionList(db()), sessions: new WhatsAppSessionStore(db()), now: () => now });
  const whatsapp = (to: string, parts: OutgoingMessage['whatsapp']): OutgoingMessage => ({ id: '1', channel: 'whatsapp', to, category: 'c', whatsapp: parts });
  const parts = { body: 'free text', template: { name: 'task_assigned', language: 'en_US', parameters: [] } };

  it('an SMS reply STOP makes the next SMS fail as the cloud provider fails; START lets it through', async () => {
    const sms: OutgoingMessage = { id: '1', channel: 'sms', to: '+15550000001', category: 'c', sms: { body: 'hi' } };
    expect(await rules().beforeDeliver(sms)).to.deep.equal({ message: sms });
    expect(await rules().receiveReply({ channel: 'sms', from: '+15550000001', body: 'Stop' })).to.equal('opt-out');
    const error = await rules().beforeDeliver(sms).catch((e: unknown) => e);
    expect(error).to.be.instanceOf(ProviderError).and.include({ retryable: false });
    expect((error as ProviderError).cause).to.include({ code: 'FW_ERR_NOTIFY_RECIPIENT_SUPPRESSED', reason: 'opted-out' });
    await rules().receiveReply({ channel: 'sms', from: '+15550000001', body: 'START' });
    expect(await rules().beforeDeliver(sms)).to.deep.equal({ message: sms });
  });

  it('WhatsApp: template until the recipient writes, session for 24 hours after, template again once the window closes', async () => {
    expect((await rules().beforeDeliver(whatsapp('+15550000002', parts))).whatsappKind).to.equal('template');
    await rules().receiveReply({ channel: 'whatsapp', from: '+15550000002', body: 'hello' });
    expect((await rules().beforeDeliver(whatsapp('+15550000002', parts))).whatsappKind).to.equal('session');
    now = new Date(now.getTime() + 24 * 3600_000);
    expect((await rules().beforeDeliver(whatsapp('+15550000002', parts))).whatsappKind).to.equal('template');
    const error = await rules().beforeDeliver(whatsapp('+15550000002', { body: 'free text only' })).catch((e: unknown) => e);
    expect((error as ProviderError).cause).to.have.property('code', 'FW_ERR_NOTIFY_MESSAGE_NOT_SENDABLE');
  });

  it('a suppressed push subscription endpoint is refused', async () => {
    const to = JSON.stringify({ endpoint: 'https://push.example.com/sub/1', keys: { p256dh: 'x', auth: 'y' } });
    await new SuppressionList(db()).add('push', 'https://push.example.com/sub/1', 'subscription-expired');
    const error = await rules().beforeDeliver({ id: '1', channel: 'push', to, category: 'c', push: { title: 't', body: 'b' } }).catch((e: unknown) => e);
    expect((error as ProviderError).cause).to.have.property('reason', 'subscription-expired');
  });
});
