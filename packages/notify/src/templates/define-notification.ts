import type { Channel, PushContent, WhatsAppContent } from '../providers/provider.js';

/** What every renderer is given besides the data. */
export interface RenderContext {
  /** The recipient's locale, or the template's `defaultLocale` when the notification named none. */
  readonly locale: string;
}

/** The email renderers: MJML for the HTML part (compiled by the dispatcher), a plain-text fallback. */
export interface EmailTemplate<D> {
  subject(data: D, context: RenderContext): string;
  /** An MJML document (`<mjml><mj-body>...</mj-body></mjml>`); values must be escaped with `escapeHtml`. */
  mjml(data: D, context: RenderContext): string;
  /** @default - the text of the compiled HTML, tags removed */
  text?(data: D, context: RenderContext): string;
}

/** The renderers of a notification: one per channel it can go out on; the data type is checked at `notify.send`. */
export interface NotificationTemplate<D> {
  /** @default 'en' */
  readonly defaultLocale?: string;
  readonly email?: EmailTemplate<D>;
  sms?(data: D, context: RenderContext): string;
  whatsapp?(data: D, context: RenderContext): WhatsAppContent;
  push?(data: D, context: RenderContext): PushContent;
}

/** A template as `defineNotification` returns it: the renderers, and the data type carried for `notify.send`. */
export interface NotificationDefinition<D> extends NotificationTemplate<D> {
  /** Only carries the data type (never set). */
  readonly __data?: D;
  /** The channels the template has renderers for. */
  readonly channels: readonly Channel[];
}

/**
 * Declares a notification (`src/notifications/<name>.ts`): `export default defineNotification<{ title: string }>({
 * email: { subject, mjml, text }, sms })`. The app registers its templates by name in `createNotifier` and the
 * dispatcher; `notify.send(tx, { template: 'task-assigned', data })` then checks `data` against `D`.
 */
export function defineNotification<D>(template: NotificationTemplate<D>): NotificationDefinition<D> {
  const channels: Channel[] = [];
  if (template.email) channels.push('email');
  if (template.sms) channels.push('sms');
  if (template.whatsapp) channels.push('whatsapp');
  if (template.push) channels.push('push');
  return Object.freeze({ ...template, channels });
}

/** The templates of an app by name. */
export type TemplateRegistry = Readonly<Record<string, NotificationDefinition<any>>>;

/** The data type of a registered template. */
export type TemplateData<T> = T extends NotificationDefinition<infer D> ? D : never;

/** Escapes text for HTML or MJML content and attributes. */
export function escapeHtml(text: unknown): string {
  return String(text).replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}
