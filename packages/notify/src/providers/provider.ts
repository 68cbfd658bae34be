/**
 * The contract between the dispatcher and a delivery provider (SES, End User Messaging, SNS, Web Push, SMTP, the
 * local inbox, or one a team writes). The dispatcher renders a template into an `OutgoingMessage` per recipient and
 * channel, and calls `send` once per attempt; a provider never reads the outbox.
 */

/** The channels a notification can go out on. */
export type Channel = 'email' | 'sms' | 'whatsapp' | 'push';

/** Every channel, in the order the README documents them. */
export const CHANNELS: readonly Channel[] = ['email', 'sms', 'whatsapp', 'push'];

/** A rendered email: HTML (MJML output) with a plain-text fallback. */
export interface EmailContent {
  readonly subject: string;
  readonly html: string;
  readonly text: string;
  /** Extra headers, e.g. `List-Unsubscribe` and `List-Unsubscribe-Post`. @default - none */
  readonly headers?: Readonly<Record<string, string>>;
}

/** A rendered SMS. */
export interface SmsContent {
  readonly body: string;
}

/** A WhatsApp template message (the only kind allowed outside the 24-hour customer-service window). */
export interface WhatsAppTemplate {
  readonly name: string;
  readonly language: string;
  readonly parameters: readonly string[];
}

/** A rendered WhatsApp message: a session `body`, a `template`, or both (the provider picks by the 24-hour window). */
export interface WhatsAppContent {
  /** @default - no session message: the template is sent */
  readonly body?: string;
  /** @default - no template: only a session message can be sent */
  readonly template?: WhatsAppTemplate;
}

/** A rendered push notification. */
export interface PushContent {
  readonly title: string;
  readonly body: string;
  /** @default - none */
  readonly data?: Readonly<Record<string, string>>;
}

/** One rendered message for one recipient on one channel: exactly the field of its channel is set. */
export interface OutgoingMessage {
  /** The outbox row id. */
  readonly id: string;
  readonly channel: Channel;
  /** An email address, an E.164 phone number, or a push subscription / endpoint id. */
  readonly to: string;
  /** The preferences and digests key; `critical` bypasses preferences. */
  readonly category: string;
  /** @default - the template's default locale */
  readonly locale?: string;
  readonly email?: EmailContent;
  readonly sms?: SmsContent;
  readonly whatsapp?: WhatsAppContent;
  readonly push?: PushContent;
}

/** What a provider answers when it accepted a message. */
export interface DeliveryResult {
  /** The provider's own id for the message (SES MessageId, SMTP Message-ID, ...), kept in the delivery log. */
  readonly providerMessageId: string;
}

/** Per-attempt options of `NotificationProvider.send`. */
export interface SendOptions {
  /**
   * Derived from the outbox row id (`idempotencyKeyOf(rowId)`): every attempt for one row carries the same key, so a
   * provider that honours it (or that the dispatcher checks with) never sends one row twice.
   */
  readonly idempotencyKey: string;
  /** Aborted when the dispatcher gives up on the attempt (timeout, shutdown). @default - none */
  readonly signal?: AbortSignal;
}

/** A delivery provider for one or more channels. */
export interface NotificationProvider {
  /** A short name kept in the delivery log (`ses`, `smtp`, `local`, ...). */
  readonly name: string;
  readonly channels: readonly Channel[];
  /**
   * Sends one message. Resolves when the provider accepted it; throws a `ProviderError` (`retryable` says whether a
   * later attempt may succeed) or any error (treated as retryable).
   */
  send(message: OutgoingMessage, options: SendOptions): Promise<DeliveryResult>;
}

/** The provider idempotency key of an outbox row: stable across attempts, processes and deploys. */
export function idempotencyKeyOf(rowId: string): string {
  return `fw-notify-${rowId}`;
}
