import type { Channel } from '../providers/provider.js';

/** A message the local inbox received: an email through its SMTP server, or an SMS/WhatsApp/push over HTTP. */
export interface InboxMessage {
  /** The inbox's own id (`m-<n>`, in arrival order). */
  readonly id: string;
  readonly channel: Channel;
  readonly to: string;
  readonly receivedAt: string;
  /** The provider idempotency key (email: from the Message-ID); a second delivery of one key is dropped. */
  readonly idempotencyKey?: string;
  readonly category?: string;
  readonly email?: {
    readonly from: string;
    readonly subject: string;
    readonly html?: string;
    readonly text?: string;
    readonly messageId?: string;
    readonly headers: Readonly<Record<string, string>>;
  };
  readonly sms?: { readonly body: string };
  readonly whatsapp?: { readonly body?: string; readonly template?: { readonly name: string; readonly language: string; readonly parameters: readonly string[] } };
  /** WhatsApp: the kind the cloud would have sent (the 24-hour window open: `session`, else `template`), when known. */
  readonly whatsappKind?: 'session' | 'template';
  readonly push?: { readonly title: string; readonly body: string; readonly data?: Readonly<Record<string, string>> };
}

/** The body functions post to the local inbox for a non-email message (what `localInboxProviders` sends). */
export interface InboxPost {
  readonly channel: 'sms' | 'whatsapp' | 'push';
  readonly to: string;
  readonly idempotencyKey: string;
  readonly category?: string;
  readonly sms?: InboxMessage['sms'];
  readonly whatsapp?: InboxMessage['whatsapp'];
  readonly push?: InboxMessage['push'];
  readonly whatsappKind?: 'session' | 'template';
}

/** The header carrying the per-run secret on posts to the local inbox. */
export const INBOX_TOKEN_HEADER = 'x-fw-dev-inbox-token';
