import type { SNSClient } from '@aws-sdk/client-sns';
import { MessageNotSendableError, ProviderError, RecipientSuppressedError } from '../errors.js';
import type { SuppressionList } from '../suppression/suppression-list.js';
import { providerErrorOf } from './aws-errors.js';
import type { Channel, DeliveryResult, NotificationProvider, OutgoingMessage, PushContent, SendOptions } from './provider.js';

export interface SnsPushProviderProps {
  /** @default - a client for the function's region */
  readonly client?: SNSClient;
  /** @default - none */
  readonly suppressions?: () => SuppressionList | Promise<SuppressionList>;
}

/** One message per platform (SNS `MessageStructure: 'json'`): FCM v1, APNs (and its sandbox), and a default. */
export function snsPushMessage(push: PushContent, idempotencyKey: string): string {
  const data = { ...(push.data ?? {}), idempotencyKey };
  const apns = JSON.stringify({ aps: { alert: { title: push.title, body: push.body } }, ...data });
  return JSON.stringify({
    default: push.body,
    GCM: JSON.stringify({ fcmV1Message: { message: { notification: { title: push.title, body: push.body }, data } } }),
    APNS: apns,
    APNS_SANDBOX: apns,
  });
}

/**
 * Mobile push through SNS platform endpoints (`Publish` with `TargetArn`); `to` is the endpoint ARN. SNS has no
 * idempotency parameter for endpoints: the key travels in the payload's data, for the app to drop a duplicate. A
 * disabled endpoint (the token was invalidated) is suppressed and the send fails without retry.
 */
export class SnsPushProvider implements NotificationProvider {
  public readonly name = 'sns-push';
  public readonly channels: readonly Channel[] = ['push'];
  private client?: SNSClient;

  constructor(private readonly props: SnsPushProviderProps = {}) {
    this.client = props.client;
  }

  public async send(message: OutgoingMessage, options: SendOptions): Promise<DeliveryResult> {
    if (message.channel !== 'push' || !message.push || !message.to.startsWith('arn:')) {
      const cause = new MessageNotSendableError('push', !message.to.startsWith('arn:') ? '`to` is not an SNS platform endpoint ARN' : 'it has no push part (title, body)');
      throw new ProviderError(this.name, cause.message, { retryable: false, cause });
    }
    const suppressions = await this.props.suppressions?.();
    await suppressions?.assertSendable(this.name, 'push', message.to);
    // The SDK client is loaded on the first send, not when the package is imported (a function that imports
    // @framework/notify to write the outbox never pays for it at cold start).
    const sdk = await import('@aws-sdk/client-sns');
    this.client ??= new sdk.SNSClient({});
    try {
      const out = await this.client.send(new sdk.PublishCommand({ TargetArn: message.to, MessageStructure: 'json', Message: snsPushMessage(message.push, options.idempotencyKey) }), { abortSignal: options.signal });
      if (!out.MessageId) throw new ProviderError(this.name, 'Publish answered without a MessageId', { retryable: true });
      return { providerMessageId: out.MessageId };
    } catch (error) {
      if ((error as { name?: string }).name === 'EndpointDisabledException') {
        await suppressions?.add('push', message.to, 'subscription-expired', { source: 'sns' });
        const cause = new RecipientSuppressedError('push', message.to, 'subscription-expired');
        throw new ProviderError(this.name, cause.message, { retryable: false, cause });
      }
      throw providerErrorOf(this.name, error);
    }
  }
}
