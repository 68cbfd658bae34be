import { MessageNotSendableError, ProviderError } from '../errors.js';
import type { OutgoingMessage } from '../providers/provider.js';
import { applySmsKeyword, keywordActionOf } from '../suppression/sms-keywords.js';
import type { SuppressionList } from '../suppression/suppression-list.js';
import type { WhatsAppSessionStore } from '../whatsapp/customer-service-window.js';
import { chooseWhatsAppKind } from '../whatsapp/whatsapp-message.js';

/** What the local inbox shows for a WhatsApp message: which kind the cloud would have sent. */
export interface LocalDeliveryPlan {
  readonly message: OutgoingMessage;
  /** For WhatsApp: `session` (free text, window open) or `template` (window closed). */
  readonly whatsappKind?: 'session' | 'template';
}

/**
 * The cloud's channel rules, run by the local inbox before it accepts a message (`fw dev` has no End User Messaging
 * to enforce them): a suppressed address (STOP, bounce, complaint, expired subscription) fails exactly as the cloud
 * provider fails (a non-retryable `ProviderError` caused by `FW_ERR_NOTIFY_RECIPIENT_SUPPRESSED`), and a WhatsApp
 * message is shown as the kind the 24-hour window allows, or refused when the window is closed and it has no template.
 * `receiveReply` is the inbox's "reply as the recipient": it opens the WhatsApp window and applies STOP / START.
 */
export class LocalChannelRules {
  constructor(
    private readonly props: {
      readonly suppressions: SuppressionList;
      readonly sessions: WhatsAppSessionStore;
      /** @default - the current time (the dev clock under `@framework/testing`) */
      readonly now?: () => Date;
    },
  ) {}

  /** Throws what the cloud provider would throw; otherwise says how the message goes out. */
  public async beforeDeliver(message: OutgoingMessage, provider = 'local'): Promise<LocalDeliveryPlan> {
    const address = message.channel === 'push' ? pushAddress(message.to) : message.to;
    await this.props.suppressions.assertSendable(provider, message.channel, address);
    if (message.channel !== 'whatsapp' || !message.whatsapp) return { message };
    const kind = chooseWhatsAppKind(message.whatsapp, await this.props.sessions.lastInbound(message.to), this.props.now?.() ?? new Date());
    if (kind === 'none') {
      const cause = new MessageNotSendableError('whatsapp', 'the 24-hour customer-service window is closed and the message has no template (add a WhatsApp template to the notification)');
      throw new ProviderError(provider, cause.message, { retryable: false, cause });
    }
    return { message, whatsappKind: kind };
  }

  /** A reply from the recipient: WhatsApp opens the window; STOP / START change the number's suppression. */
  public async receiveReply(reply: { readonly channel: 'sms' | 'whatsapp'; readonly from: string; readonly body: string; readonly at?: Date }): Promise<'opt-out' | 'opt-in' | 'none'> {
    if (reply.channel === 'sms') return applySmsKeyword(this.props.suppressions, { from: reply.from, to: '', body: reply.body });
    await this.props.sessions.recordInbound(reply.from, reply.at ?? this.props.now?.() ?? new Date());
    const action = keywordActionOf(reply.body);
    if (action === 'opt-out') await this.props.suppressions.add('whatsapp', reply.from, 'opted-out', { keyword: reply.body.trim().slice(0, 32) });
    if (action === 'opt-in') await this.props.suppressions.remove('whatsapp', reply.from);
    return action;
  }
}

/** The endpoint of a Web Push subscription (what the suppression list keys push by), or `to` itself (an SNS ARN). */
function pushAddress(to: string): string {
  try {
    const endpoint = (JSON.parse(to) as { endpoint?: unknown }).endpoint;
    return typeof endpoint === 'string' ? endpoint : to;
  } catch {
    return to;
  }
}
