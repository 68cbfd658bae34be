import type { Transporter } from 'nodemailer';
import { ProviderError } from '../errors.js';
import type { DeliveryResult, NotificationProvider, OutgoingMessage, SendOptions } from './provider.js';

export interface SmtpProviderOptions {
  readonly host: string;
  readonly port: number;
  /** TLS from the first byte (port 465); otherwise STARTTLS when the server offers it. @default false */
  readonly secure?: boolean;
  /** @default - no authentication */
  readonly auth?: { readonly user: string; readonly pass: string };
  /** The sender, e.g. `"Tasks" <no-reply@example.com>`. */
  readonly from: string;
  /** The domain of the generated Message-ID. @default - the sender's domain */
  readonly messageIdDomain?: string;
  /**
   * Keep connections open and reuse them (nodemailer's pool, up to 5): for a long-running dispatcher sending many
   * messages. @default false (one connection per message: nothing left open when a Lambda freezes)
   */
  readonly pool?: boolean;
  /** Refuse a server whose certificate does not verify. @default true */
  readonly rejectUnauthorized?: boolean;
}

/**
 * Email over SMTP with nodemailer: the documented example of a provider a team plugs in (any relay, Mailpit, the
 * local inbox of `fw dev`). SMTP has no idempotency key, so the Message-ID is derived from it: a resend of the same
 * outbox row carries the same Message-ID, which receivers and the local inbox use to drop duplicates.
 */
export function smtpProvider(options: SmtpProviderOptions): NotificationProvider & { close(): void } {
  let transporter: Transporter | undefined;
  const domain = options.messageIdDomain ?? /@([^>\s]+)>?\s*$/.exec(options.from)?.[1] ?? 'localhost';
  const transport = async (): Promise<Transporter> => {
    if (!transporter) {
      const nodemailer = await import('nodemailer');
      transporter = nodemailer.createTransport({
        ...(options.pool ? { pool: true as const } : {}),
        host: options.host,
        port: options.port,
        secure: options.secure ?? false,
        ...(options.auth ? { auth: { user: options.auth.user, pass: options.auth.pass } } : {}),
        tls: { rejectUnauthorized: options.rejectUnauthorized ?? true },
      });
    }
    return transporter;
  };
  return {
    name: 'smtp',
    channels: ['email'],
    async send(message: OutgoingMessage, sendOptions: SendOptions): Promise<DeliveryResult> {
      if (!message.email) throw new ProviderError('smtp', `outbox row ${message.id} has no email content`, { retryable: false });
      const messageId = `<${sendOptions.idempotencyKey}@${domain}>`;
      try {
        const info = await (await transport()).sendMail({
          from: options.from,
          to: message.to,
          subject: message.email.subject,
          html: message.email.html,
          text: message.email.text,
          messageId,
          headers: { ...message.email.headers },
        });
        return { providerMessageId: String(info.messageId ?? messageId) };
      } catch (error) {
        // 5xx replies are permanent (bad mailbox, refused content); connection failures and 4xx may pass later.
        const code = (error as { responseCode?: number }).responseCode;
        throw new ProviderError('smtp', (error as Error).message, { retryable: code === undefined || code < 500, cause: error });
      }
    },
    close() {
      transporter?.close();
    },
  };
}
