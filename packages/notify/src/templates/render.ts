import { TemplateChannelMissingError, TemplateNotFoundError, TemplateRenderError } from '../errors.js';
import type { Channel, OutgoingMessage } from '../providers/provider.js';
import type { NotificationDefinition, TemplateRegistry } from './define-notification.js';

/** What the dispatcher renders one outbox row from. */
export interface RenderInput {
  readonly id: string;
  readonly channel: Channel;
  readonly to: string;
  readonly template: string;
  readonly data: unknown;
  readonly category: string;
  readonly locale?: string | undefined;
}

/** The registered template of that name, else `TemplateNotFoundError`; also checks that it can render `channel`. */
export function templateFor(templates: TemplateRegistry, name: string, channel?: Channel): NotificationDefinition<unknown> {
  const template = Object.prototype.hasOwnProperty.call(templates, name) ? templates[name] : undefined;
  if (!template) throw new TemplateNotFoundError(name, Object.keys(templates));
  if (channel && !template.channels.includes(channel)) throw new TemplateChannelMissingError(name, channel);
  return template;
}

/** Renders one outbox row into the message a provider sends (email HTML compiled from MJML). */
export async function renderMessage(templates: TemplateRegistry, input: RenderInput): Promise<OutgoingMessage> {
  const template = templateFor(templates, input.template, input.channel);
  try {
    return await render(template, input);
  } catch (error) {
    throw new TemplateRenderError(input.template, input.channel, error);
  }
}

async function render(template: NotificationDefinition<unknown>, input: RenderInput): Promise<OutgoingMessage> {
  const locale = input.locale ?? template.defaultLocale ?? 'en';
  const context = { locale };
  const base = { id: input.id, channel: input.channel, to: input.to, category: input.category, locale };
  switch (input.channel) {
    case 'email': {
      const email = template.email!;
      // Loaded on the first email: MJML is the heaviest module of the package (about a second to import on a busy
      // machine), and a function that only writes the outbox (notify.send) never needs it.
      const { default: mjml2html } = await import('mjml');
      const compiled = await mjml2html(email.mjml(input.data, context), { validationLevel: 'strict' });
      const html = compiled.html;
      const text = email.text ? email.text(input.data, context) : htmlToText(html);
      return { ...base, email: { subject: email.subject(input.data, context), html, text } };
    }
    case 'sms':
      return { ...base, sms: { body: template.sms!(input.data, context) } };
    case 'whatsapp':
      return { ...base, whatsapp: template.whatsapp!(input.data, context) };
    case 'push':
      return { ...base, push: template.push!(input.data, context) };
  }
}

/** A plain-text fallback of rendered HTML: the visible text, one block per line. */
export function htmlToText(html: string): string {
  return html
    .replace(/<(style|script|head)[^>]*>[\s\S]*?<\/\1>/gi, '')
    .replace(/<br\s*\/?>/gi, '\n')
    .replace(/<\/(p|div|h[1-6]|li|tr|td)>/gi, '\n')
    .replace(/<[^>]+>/g, '')
    .replace(/&nbsp;/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&')
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean)
    .join('\n');
}
