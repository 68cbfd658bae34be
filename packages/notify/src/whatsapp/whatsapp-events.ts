import { UnreadableEventError } from '../errors.js';
import { keywordActionOf } from '../suppression/sms-keywords.js';
import type { SuppressionList } from '../suppression/suppression-list.js';
import type { WhatsAppSessionStore } from './customer-service-window.js';
import { REENGAGEMENT_ERROR_CODE } from './whatsapp-message.js';

/** A status Meta reported for a message we sent (`sent`, `delivered`, `read`, `failed`). */
export interface WhatsAppStatus {
  readonly providerMessageId: string;
  readonly status: string;
  readonly recipient: string;
  /** Our idempotency key, echoed from `biz_opaque_callback_data`. */
  readonly idempotencyKey?: string;
  readonly errorCodes: readonly number[];
  /** Meta's 131047: the message was a session message outside the 24-hour window. */
  readonly outsideWindow: boolean;
}

type Json = Readonly<Record<string, unknown>>;

function objects(value: unknown): Json[] {
  return Array.isArray(value) ? value.filter((v): v is Json => !!v && typeof v === 'object') : [];
}

/** Meta writes numbers without the `+` of E.164. */
function e164(number: unknown): string {
  const text = String(number ?? '');
  return text.startsWith('+') ? text : `+${text}`;
}

/** The webhook entries of an End User Messaging Social SNS event (`whatsAppWebhookEntry`, a JSON string per message). */
function webhookEntries(event: unknown): Json[] {
  const root = event as { Records?: { Sns?: { Message?: unknown } }[] } | null;
  const messages = Array.isArray(root?.Records) ? root.Records.map((r) => r?.Sns?.Message) : [JSON.stringify(event)];
  return messages.map((message) => {
    try {
      const parsed = JSON.parse(String(message)) as Json;
      const raw = parsed['whatsAppWebhookEntry'];
      const entry: unknown = typeof raw === 'string' ? JSON.parse(raw) : raw;
      if (!entry || typeof entry !== 'object') throw new Error('no entry');
      return entry as Json;
    } catch {
      throw new UnreadableEventError('WhatsApp', 'no whatsAppWebhookEntry in the SNS message');
    }
  });
}

/**
 * The handler of the WhatsApp events topic: every inbound customer message opens (re-opens) the 24-hour window, a
 * STOP opts the number out of WhatsApp (START back in), and each status goes to `onStatus` (a 131047 failure says the
 * session message must be re-sent as a template).
 */
export function whatsappEventHandler(options: {
  readonly sessions: () => WhatsAppSessionStore | Promise<WhatsAppSessionStore>;
  readonly suppressions?: () => SuppressionList | Promise<SuppressionList>;
  readonly onStatus?: (status: WhatsAppStatus) => Promise<void> | void;
}): (event: unknown) => Promise<{ readonly inbound: number; readonly statuses: number }> {
  return async (event) => {
    const sessions = await options.sessions();
    const suppressions = await options.suppressions?.();
    let inbound = 0;
    let statuses = 0;
    for (const entry of webhookEntries(event)) {
      for (const change of objects(entry['changes'])) {
        const value = (change['value'] ?? {}) as Json;
        for (const message of objects(value['messages'])) {
          const from = e164(message['from']);
          await sessions.recordInbound(from, new Date(Number(message['timestamp']) * 1000));
          const text = (message['text'] as Json | undefined)?.['body'];
          if (suppressions && typeof text === 'string') {
            const action = keywordActionOf(text);
            if (action === 'opt-out') await suppressions.add('whatsapp', from, 'opted-out', { keyword: text.trim().slice(0, 32) });
            if (action === 'opt-in') await suppressions.remove('whatsapp', from);
          }
          inbound += 1;
        }
        for (const status of objects(value['statuses'])) {
          const errorCodes = objects(status['errors']).map((e) => Number(e['code']));
          await options.onStatus?.({
            providerMessageId: String(status['id'] ?? ''),
            status: String(status['status'] ?? ''),
            recipient: e164(status['recipient_id']),
            ...(typeof status['biz_opaque_callback_data'] === 'string' ? { idempotencyKey: status['biz_opaque_callback_data'] } : {}),
            errorCodes,
            outsideWindow: errorCodes.includes(REENGAGEMENT_ERROR_CODE),
          });
          statuses += 1;
        }
      }
    }
    return { inbound, statuses };
  };
}
