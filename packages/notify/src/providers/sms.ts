import type { PinpointSMSVoiceV2Client } from '@aws-sdk/client-pinpoint-sms-voice-v2';
import { MessageNotSendableError, ProviderError, RecipientSuppressedError } from '../errors.js';
import type { SuppressionList } from '../suppression/suppression-list.js';
import { providerErrorOf } from './aws-errors.js';
import type { Channel, DeliveryResult, NotificationProvider, OutgoingMessage, SendOptions } from './provider.js';

export interface SmsProviderProps {
  /** The phone number, sender id, pool id or ARN to send from. */
  readonly originationIdentity: string;
  /** @default 'TRANSACTIONAL' (higher delivery priority; what notifications are) */
  readonly messageType?: 'TRANSACTIONAL' | 'PROMOTIONAL';
  /** The End User Messaging configuration set (delivery events). @default - none */
  readonly configurationSetName?: string;
  /** @default - a client for the function's region */
  readonly client?: PinpointSMSVoiceV2Client;
  /** Checked before each send; an opted-out number found by the API is added. @default - no list */
  readonly suppressions?: () => SuppressionList | Promise<SuppressionList>;
  /** Seconds End User Messaging keeps trying. @default - the service's default (72 hours) */
  readonly timeToLive?: number;
}

/**
 * SMS through AWS End User Messaging (`pinpoint-sms-voice-v2` `SendTextMessage`). STOP is honoured twice: a number
 * on our suppression list is refused before the call, and when the service answers `ConflictException` with reason
 * `DESTINATION_PHONE_NUMBER_OPTED_OUT` (its own opt-out list) the number is added to ours and the send fails with
 * `FW_ERR_NOTIFY_RECIPIENT_SUPPRESSED`, not retried. The idempotency key goes in `Context`, echoed in delivery events.
 */
export class SmsProvider implements NotificationProvider {
  public readonly name = 'sms';
  public readonly channels: readonly Channel[] = ['sms'];
  private client?: PinpointSMSVoiceV2Client;

  constructor(private readonly props: SmsProviderProps) {
    this.client = props.client;
  }

  public async send(message: OutgoingMessage, options: SendOptions): Promise<DeliveryResult> {
    if (message.channel !== 'sms' || !message.sms) {
      const cause = new MessageNotSendableError('sms', 'it has no sms part (body)');
      throw new ProviderError(this.name, cause.message, { retryable: false, cause });
    }
    const suppressions = await this.props.suppressions?.();
    await suppressions?.assertSendable(this.name, 'sms', message.to);
    // The SDK client is loaded on the first send, not when the package is imported (a function that imports
    // @framework/notify to write the outbox never pays for it at cold start).
    const sdk = await import('@aws-sdk/client-pinpoint-sms-voice-v2');
    this.client ??= new sdk.PinpointSMSVoiceV2Client({});
    try {
      const out = await this.client.send(
        new sdk.SendTextMessageCommand({
          DestinationPhoneNumber: message.to,
          OriginationIdentity: this.props.originationIdentity,
          MessageBody: message.sms.body,
          MessageType: this.props.messageType ?? 'TRANSACTIONAL',
          ...(this.props.configurationSetName ? { ConfigurationSetName: this.props.configurationSetName } : {}),
          ...(this.props.timeToLive ? { TimeToLive: this.props.timeToLive } : {}),
          Context: { idempotencyKey: options.idempotencyKey, category: message.category },
        }),
        { abortSignal: options.signal },
      );
      if (!out.MessageId) throw new ProviderError(this.name, 'SendTextMessage answered without a MessageId', { retryable: true });
      return { providerMessageId: out.MessageId };
    } catch (error) {
      const e = error as { name?: string; Reason?: string };
      if (e?.name === 'ConflictException' && e.Reason === 'DESTINATION_PHONE_NUMBER_OPTED_OUT') {
        await suppressions?.add('sms', message.to, 'opted-out', { source: 'end-user-messaging' });
        const cause = new RecipientSuppressedError('sms', message.to, 'opted-out');
        throw new ProviderError(this.name, cause.message, { retryable: false, cause });
      }
      throw providerErrorOf(this.name, error);
    }
  }
}
