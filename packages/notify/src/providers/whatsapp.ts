import type { SocialMessagingClient } from '@aws-sdk/client-socialmessaging';
import { MessageNotSendableError, ProviderError } from '../errors.js';
import type { SuppressionList } from '../suppression/suppression-list.js';
import type { CustomerServiceWindows } from '../whatsapp/customer-service-window.js';
import { chooseWhatsAppKind, isReengagementError, sessionMessage, templateMessage, type WhatsAppApiMessage } from '../whatsapp/whatsapp-message.js';
import { providerErrorOf } from './aws-errors.js';
import type { Channel, DeliveryResult, NotificationProvider, OutgoingMessage, SendOptions } from './provider.js';

export interface WhatsAppProviderProps {
  /** The WhatsApp phone number id in End User Messaging Social (`phone-number-id-...`). */
  readonly originationPhoneNumberId: string;
  /** When each customer last wrote (the 24-hour window). */
  readonly windows: CustomerServiceWindows;
  /** @default 'v20.0' */
  readonly metaApiVersion?: string;
  /** @default - a client for the function's region */
  readonly client?: SocialMessagingClient;
  /** @default - no suppression check */
  readonly suppressions?: () => SuppressionList | Promise<SuppressionList>;
  /** @default - the current time */
  readonly now?: () => Date;
}

/**
 * WhatsApp through AWS End User Messaging Social (`socialmessaging` `SendWhatsAppMessage`). Inside the 24-hour
 * customer-service window (the customer wrote less than 24 hours ago) a message with a `body` goes out as a session
 * message; outside it, or without a body, as the approved template. When Meta refuses a session message with 131047
 * (the window closed between our check and the send, or our record of it is stale), the template is sent instead, in
 * the same attempt. The idempotency key travels as `biz_opaque_callback_data`, echoed in Meta's status webhooks.
 */
export class WhatsAppProvider implements NotificationProvider {
  public readonly name = 'whatsapp';
  public readonly channels: readonly Channel[] = ['whatsapp'];
  private client?: SocialMessagingClient;

  constructor(private readonly props: WhatsAppProviderProps) {
    this.client = props.client;
  }

  public async send(message: OutgoingMessage, options: SendOptions): Promise<DeliveryResult> {
    const content = message.whatsapp;
    if (message.channel !== 'whatsapp' || !content) throw this.notSendable('it has no whatsapp part (body or template)');
    await (await this.props.suppressions?.())?.assertSendable(this.name, 'whatsapp', message.to);
    const now = this.props.now?.() ?? new Date();
    const kind = chooseWhatsAppKind(content, await this.props.windows.lastInbound(message.to), now);
    if (kind === 'none') throw this.notSendable('the 24-hour customer-service window is closed and the message has no template (add a WhatsApp template to the notification)');
    if (kind === 'template') return this.call(templateMessage(message.to, content.template!, options.idempotencyKey), options);
    try {
      return await this.call(sessionMessage(message.to, content.body!, options.idempotencyKey), options, false);
    } catch (error) {
      if (!isReengagementError(error)) throw providerErrorOf(this.name, error);
      if (!content.template) throw this.notSendable('Meta refused the session message with 131047 (outside the 24-hour window) and the message has no template to fall back to');
      return this.call(templateMessage(message.to, content.template, options.idempotencyKey), options);
    }
  }

  private notSendable(problem: string): ProviderError {
    const cause = new MessageNotSendableError('whatsapp', problem);
    return new ProviderError(this.name, cause.message, { retryable: false, cause });
  }

  private async call(body: WhatsAppApiMessage, options: SendOptions, wrap = true): Promise<DeliveryResult> {
    // The SDK client is loaded on the first send, not when the package is imported (a function that imports
    // @framework/notify to write the outbox never pays for it at cold start).
    const sdk = await import('@aws-sdk/client-socialmessaging');
    this.client ??= new sdk.SocialMessagingClient({});
    try {
      const out = await this.client.send(
        new sdk.SendWhatsAppMessageCommand({
          originationPhoneNumberId: this.props.originationPhoneNumberId,
          message: new TextEncoder().encode(JSON.stringify(body)),
          metaApiVersion: this.props.metaApiVersion ?? 'v20.0',
        }),
        { abortSignal: options.signal },
      );
      if (!out.messageId) throw new ProviderError(this.name, 'SendWhatsAppMessage answered without a messageId', { retryable: true });
      return { providerMessageId: out.messageId };
    } catch (error) {
      throw wrap ? providerErrorOf(this.name, error) : error;
    }
  }
}
