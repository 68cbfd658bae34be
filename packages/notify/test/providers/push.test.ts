import { EndpointDisabledException, PublishCommand, SNSClient } from '@aws-sdk/client-sns';
import { mockClient } from 'aws-sdk-client-mock';
import { expect } from 'chai';
import { Agent } from 'node:https';
import webpush from 'web-push';
import { ProviderError, pushTopicOf, SnsPushProvider, SuppressionList, WebPushProvider, type OutgoingMessage } from '../../src/index.js';
import { useChannelsDatabase } from '../support/channels-database.js';
import { browserKeys, decryptPushBody, startPushService } from '../support/push-service.js';

const push = (to: string): OutgoingMessage => ({ id: '5', channel: 'push', to, category: 'task assigned', push: { title: 'New task', body: 'Ship it', data: { taskId: 't1' } } });

describe('Web Push provider (a push service over real HTTPS on loopback)', () => {
  const db = useChannelsDatabase();
  const vapid = { subject: 'mailto:ops@example.com', ...webpush.generateVAPIDKeys() };
  let service: Awaited<ReturnType<typeof startPushService>>;
  let status = 201;
  before(async function () {
    service = await startPushService(() => status);
    if (!service) {
      console.warn('      skipped: openssl is not on PATH (needed for the test HTTPS certificate)');
      this.skip();
    }
  });
  after(async () => service?.stop());

  it('POSTs an aes128gcm payload the browser can decrypt, with VAPID, TTL, urgency and the idempotency key as Topic', async () => {
    status = 201;
    const keys = browserKeys();
    const subscription = { endpoint: `${service!.url}/push/abc`, keys: { p256dh: keys.p256dh, auth: keys.auth } };
    const provider = new WebPushProvider({ vapid, ttlSeconds: 600, agent: new Agent({ ca: service!.ca }) });
    const result = await provider.send(push(JSON.stringify(subscription)), { idempotencyKey: 'fw-notify-5' });
    expect(result.providerMessageId).to.match(/^https:\/\/127\.0\.0\.1\/messages\/\d+$/);
    const request = service!.requests.at(-1)!;
    expect(request.path).to.equal('/push/abc');
    expect(request.headers).to.include({ 'content-encoding': 'aes128gcm', ttl: '600', urgency: 'normal', topic: pushTopicOf('fw-notify-5') });
    expect(String(request.headers['authorization'])).to.match(new RegExp(`^vapid t=[\\w-]+\\.[\\w-]+\\.[\\w-]+, k=${vapid.publicKey}$`));
    expect(pushTopicOf('fw-notify-5')).to.match(/^[A-Za-z0-9_-]{32}$/);
    expect(JSON.parse(decryptPushBody(request.body, keys))).to.deep.equal({ title: 'New task', body: 'Ship it', data: { taskId: 't1' } });
  });

  it('410 Gone suppresses the subscription: not retried, and the next send makes no request', async () => {
    status = 410;
    const keys = browserKeys();
    const subscription = JSON.stringify({ endpoint: `${service!.url}/push/gone`, keys: { p256dh: keys.p256dh, auth: keys.auth } });
    const provider = new WebPushProvider({ vapid, agent: new Agent({ ca: service!.ca }), suppressions: () => new SuppressionList(db()) });
    const before = service!.requests.length;
    const first = await provider.send(push(subscription), { idempotencyKey: 'k' }).catch((e: unknown) => e);
    expect(first).to.be.instanceOf(ProviderError).and.include({ retryable: false });
    expect((first as ProviderError).cause).to.have.property('code', 'FW_ERR_NOTIFY_RECIPIENT_SUPPRESSED');
    const second = await provider.send(push(subscription), { idempotencyKey: 'k' }).catch((e: unknown) => e);
    expect((second as ProviderError).cause).to.have.property('reason', 'subscription-expired');
    expect(service!.requests.length - before).to.equal(1);
  });

  it('429 is retryable; a `to` that is not a subscription is refused without a request', async () => {
    status = 429;
    const keys = browserKeys();
    const provider = new WebPushProvider({ vapid, agent: new Agent({ ca: service!.ca }) });
    const throttled = await provider.send(push(JSON.stringify({ endpoint: `${service!.url}/push/busy`, keys: { p256dh: keys.p256dh, auth: keys.auth } })), { idempotencyKey: 'k' }).catch((e: unknown) => e);
    expect(throttled).to.be.instanceOf(ProviderError).and.include({ retryable: true });
    const bad = await provider.send(push('not json'), { idempotencyKey: 'k' }).catch((e: unknown) => e);
    expect((bad as ProviderError).cause).to.have.property('code', 'FW_ERR_NOTIFY_MESSAGE_NOT_SENDABLE');
  });
});

describe('SNS platform-endpoint push provider', () => {
  // SNS mobile push has no local emulator: the client is mocked with aws-sdk-client-mock; the database is real.
  const db = useChannelsDatabase();
  const sns = mockClient(SNSClient);
  afterEach(() => sns.reset());
  after(() => sns.restore());
  const endpoint = 'arn:aws:sns:us-east-1:123456789012:endpoint/GCM/tasks-android/5e3e9847-3183-3f18-a7e8-671c3a57d4b3';

  it('publishes to the endpoint ARN with a per-platform JSON message carrying the idempotency key', async () => {
    sns.on(PublishCommand).resolves({ MessageId: 'sns-id' });
    const provider = new SnsPushProvider({ client: new SNSClient({ region: 'us-east-1' }) });
    expect(await provider.send(push(endpoint), { idempotencyKey: 'fw-notify-5' })).to.deep.equal({ providerMessageId: 'sns-id' });
    const input = sns.commandCalls(PublishCommand)[0]!.args[0].input;
    expect(input).to.include({ TargetArn: endpoint, MessageStructure: 'json' });
    const message = JSON.parse(input.Message!) as Record<string, string>;
    expect(message['default']).to.equal('Ship it');
    expect(JSON.parse(message['GCM']!)).to.deep.equal({ fcmV1Message: { message: { notification: { title: 'New task', body: 'Ship it' }, data: { taskId: 't1', idempotencyKey: 'fw-notify-5' } } } });
    expect(JSON.parse(message['APNS']!)).to.deep.equal({ aps: { alert: { title: 'New task', body: 'Ship it' } }, taskId: 't1', idempotencyKey: 'fw-notify-5' });
  });

  it('a disabled endpoint is suppressed and not retried', async () => {
    sns.on(PublishCommand).rejects(new EndpointDisabledException({ message: 'Endpoint is disabled', $metadata: {} }));
    const suppressions = new SuppressionList(db());
    const provider = new SnsPushProvider({ client: new SNSClient({ region: 'us-east-1' }), suppressions: () => suppressions });
    const error = await provider.send(push(endpoint), { idempotencyKey: 'k' }).catch((e: unknown) => e);
    expect(error).to.be.instanceOf(ProviderError).and.include({ retryable: false });
    expect((await suppressions.find('push', endpoint))?.reason).to.equal('subscription-expired');
  });
});
