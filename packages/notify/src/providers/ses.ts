import type { MessageTag, SESv2Client } from '@aws-sdk/client-sesv2';
import { MessageNotSendableError, ProviderError } from '../errors.js';
import type { SuppressionList } from '../suppression/suppression-list.js';
import { providerErrorOf } from './aws-errors.js';
import type { Channel, DeliveryResult, NotificationProvider, OutgoingMessage, SendOptions } from './provider.js';

/** The message tag (and header) carrying the outbox row's idempotency key: SES echoes tags in every delivery event. */
export const IDEMPOTENCY_TAG = 'fw-idempotency-key';
/** The header carrying the idempotency key, for mailbox-side deduplication and support. */
export const IDEMPOTENCY_HEADER = 'X-Fw-Idempotency-Key';
/** The message tag carrying the category (per-category bounce and complaint rates in SES's metrics). */
export const CATEGORY_TAG = 'fw-category';

export interface SesEmailProviderProps {
  /** A verified identity's address, optionally with a name: `"Acme" <no-reply@acme.com>`. */
  readonly from: string;
  /** The configuration set whose event destination publishes bounces and complaints (see the notify infra). */
  readonly configurationSetName: string;
  /** @default - a client for the function's region */
  readonly client?: SESv2Client;
  /** Checked before each send. @default - no check (SES's account-level suppression list still applies) */
  readonly suppressions?: () => SuppressionList | Promise<SuppressionList>;
  /** @default - none */
  readonly replyTo?: readonly string[];
}

/** Tag values allow letters, digits, `_ - . @` only (SES refuses anything else). */
function tagValue(value: string): string {
  return value.replace(/[^A-Za-z0-9_.@-]/g, '_').slice(0, 256);
}

/**
 * Email through Amazon SES v2 `SendEmail` with a configuration set. SES has no idempotency parameter: the key travels
 * as a message tag and a header, so a delivery event can be matched to its outbox row, and the dispatcher's status
 * write (not SES) is what prevents a second send.
 */
export class SesEmailProvider implements NotificationProvider {
  public readonly name = 'ses';
  public readonly channels: readonly Channel[] = ['email'];
  private client?: SESv2Client;

  constructor(private readonly props: SesEmailProviderProps) {
    this.client = props.client;
  }

  public async send(message: OutgoingMessage, options: SendOptions): Promise<DeliveryResult> {
    const email = message.email;
    if (message.channel !== 'email' || !email) {
      const cause = new MessageNotSendableError('email', 'it has no email part (subject, html, text)');
      throw new ProviderError(this.name, cause.message, { retryable: false, cause });
    }
    await (await this.props.suppressions?.())?.assertSendable(this.name, 'email', message.to);
    const headers = [...Object.entries(email.headers ?? {}), [IDEMPOTENCY_HEADER, options.idempotencyKey] as const].map(([Name, Value]) => ({ Name, Value }));
    const tags: MessageTag[] = [
      { Name: IDEMPOTENCY_TAG, Value: tagValue(options.idempotencyKey) },
      { Name: CATEGORY_TAG, Value: tagValue(message.category) },
    ];
    // The SDK client is loaded on the first send, not when the package is imported (a function that imports
    // @framework/notify to write the outbox never pays for it at cold start).
    const sdk = await import('@aws-sdk/client-sesv2');
    this.client ??= new sdk.SESv2Client({});
    try {
      const out = await this.client.send(
        new sdk.SendEmailCommand({
          FromEmailAddress: this.props.from,
          Destination: { ToAddresses: [message.to] },
          ...(this.props.replyTo ? { ReplyToAddresses: [...this.props.replyTo] } : {}),
          Content: {
            Simple: {
              Subject: { Data: email.subject, Charset: 'UTF-8' },
              Body: { Html: { Data: email.html, Charset: 'UTF-8' }, Text: { Data: email.text, Charset: 'UTF-8' } },
              Headers: headers,
            },
          },
          ConfigurationSetName: this.props.configurationSetName,
          EmailTags: tags,
        }),
        { abortSignal: options.signal },
      );
      if (!out.MessageId) throw new ProviderError(this.name, 'SendEmail answered without a MessageId', { retryable: true });
      return { providerMessageId: out.MessageId };
    } catch (error) {
      throw providerErrorOf(this.name, error);
    }
  }
}
