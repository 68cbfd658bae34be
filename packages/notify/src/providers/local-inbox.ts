import { DEV_PATHS, ENV } from '@framework/core/names';
import { ProviderError } from '../errors.js';
import { INBOX_TOKEN_HEADER, type InboxPost } from '../local/inbox-message.js';
import type { DeliveryResult, NotificationProvider, OutgoingMessage, SendOptions } from './provider.js';
import { smtpProvider } from './smtp.js';

/** Whether this function runs under `fw dev` with a local inbox (its variables are set). */
export function localInboxAvailable(env: NodeJS.ProcessEnv = process.env): boolean {
  return Boolean(env[ENV.devEndpoint] && env[ENV.devInboxToken] && env[ENV.devSmtpPort]);
}

/**
 * The cloud's channel rules the local inbox applies before it accepts a message (`LocalChannelRules`: suppression
 * and STOP, the WhatsApp 24-hour window), so `fw dev` refuses what the cloud would refuse.
 */
export interface LocalDeliveryRules {
  beforeDeliver(message: OutgoingMessage, provider?: string): Promise<{ readonly message: OutgoingMessage; readonly whatsappKind?: 'session' | 'template' }>;
}

export interface LocalInboxProvidersOptions {
  /** @default - none: every message is accepted */
  readonly rules?: LocalDeliveryRules;
  /** @default process.env */
  readonly env?: NodeJS.ProcessEnv;
}

/**
 * The providers of `fw dev`: email over SMTP to the local inbox's SMTP server (the same code path as any SMTP relay),
 * SMS, WhatsApp and push posted to the inbox. Use them when `localInboxAvailable()`.
 */
export function localInboxProviders(options: LocalInboxProvidersOptions = {}): NotificationProvider[] {
  const env = options.env ?? process.env;
  const rules = options.rules;
  const endpoint = env[ENV.devEndpoint];
  const token = env[ENV.devInboxToken];
  const port = Number(env[ENV.devSmtpPort]);
  if (!endpoint || !token || !Number.isInteger(port)) {
    throw new ProviderError('local-inbox', `${ENV.devEndpoint}, ${ENV.devInboxToken} and ${ENV.devSmtpPort} are not set: the local inbox exists only under fw dev (deployed, pass the cloud providers)`, { retryable: false });
  }
  const smtp = smtpProvider({ host: new URL(endpoint).hostname, port, from: '"fw dev" <no-reply@localhost>', messageIdDomain: 'notify.localhost' });
  const email: NotificationProvider = {
    name: smtp.name,
    channels: smtp.channels,
    async send(message, options) {
      if (rules) await rules.beforeDeliver(message, 'local-inbox');
      return smtp.send(message, options);
    },
  };
  const messages: NotificationProvider = {
    name: 'local-inbox',
    channels: ['sms', 'whatsapp', 'push'],
    async send(message: OutgoingMessage, options: SendOptions): Promise<DeliveryResult> {
      const plan = rules ? await rules.beforeDeliver(message, 'local-inbox') : { message };
      const channel = message.channel as InboxPost['channel'];
      const body: InboxPost = {
        channel,
        to: message.to,
        idempotencyKey: options.idempotencyKey,
        category: message.category,
        [channel]: message[channel],
        ...(plan.whatsappKind ? { whatsappKind: plan.whatsappKind } : {}),
      };
      let response: Response;
      try {
        response = await fetch(`${endpoint}${DEV_PATHS.inbox}/messages`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', [INBOX_TOKEN_HEADER]: token },
          body: JSON.stringify(body),
          ...(options.signal ? { signal: options.signal } : {}),
        });
      } catch (error) {
        throw new ProviderError('local-inbox', `the dev server did not answer (${(error as Error).message})`, { retryable: true, cause: error });
      }
      const answer = (await response.json().catch(() => ({}))) as { id?: string; error?: { message?: string } };
      if (!response.ok) throw new ProviderError('local-inbox', answer.error?.message ?? `HTTP ${response.status}`, { retryable: response.status >= 500 });
      return { providerMessageId: answer.id ?? options.idempotencyKey };
    },
  };
  return [email, messages];
}
