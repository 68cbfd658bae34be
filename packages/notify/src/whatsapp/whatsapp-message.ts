import type { WhatsAppContent } from '../providers/provider.js';
import { isWindowOpen } from './customer-service-window.js';

/** Meta's error for a free-form message outside the 24-hour window ("Re-engagement message"). */
export const REENGAGEMENT_ERROR_CODE = 131047;

/** A WhatsApp Cloud API message body, as `SendWhatsAppMessage` takes it (JSON, as bytes). */
export type WhatsAppApiMessage = Readonly<Record<string, unknown>>;

/** Which kind to send: a session message inside the window when there is a body, else the template. */
export function chooseWhatsAppKind(content: WhatsAppContent, lastInboundAt: Date | undefined, now: Date): 'session' | 'template' | 'none' {
  if (content.body !== undefined && isWindowOpen(lastInboundAt, now)) return 'session';
  if (content.template) return 'template';
  return 'none';
}

/** The Cloud API body of a session (free-form text) message. */
export function sessionMessage(to: string, body: string, callbackData: string): WhatsAppApiMessage {
  return { messaging_product: 'whatsapp', recipient_type: 'individual', to, type: 'text', text: { preview_url: false, body }, biz_opaque_callback_data: callbackData };
}

/** The Cloud API body of a template message, its parameters in the template's body component. */
export function templateMessage(to: string, template: NonNullable<WhatsAppContent['template']>, callbackData: string): WhatsAppApiMessage {
  return {
    messaging_product: 'whatsapp',
    recipient_type: 'individual',
    to,
    type: 'template',
    template: {
      name: template.name,
      language: { code: template.language },
      ...(template.parameters.length ? { components: [{ type: 'body', parameters: template.parameters.map((text) => ({ type: 'text', text })) }] } : {}),
    },
    biz_opaque_callback_data: callbackData,
  };
}

/** Whether an error (SDK exception, Meta error payload) is Meta's 131047 "outside the 24-hour window". */
export function isReengagementError(error: unknown): boolean {
  const e = error as { message?: unknown; code?: unknown; Message?: unknown } | null;
  if (!e || typeof e !== 'object') return false;
  if (e.code === REENGAGEMENT_ERROR_CODE) return true;
  return [e.message, e.Message].some((text) => typeof text === 'string' && new RegExp(`\\b${REENGAGEMENT_ERROR_CODE}\\b`).test(text));
}
