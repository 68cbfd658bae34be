import { createHash } from 'node:crypto';
import type { Agent } from 'node:https';
import { MessageNotSendableError, ProviderError, RecipientSuppressedError } from '../errors.js';
import type { SuppressionList } from '../suppression/suppression-list.js';
import type { Channel, DeliveryResult, NotificationProvider, OutgoingMessage, SendOptions } from './provider.js';

export interface WebPushProviderProps {
  /** The VAPID key pair (`npx web-push generate-vapid-keys`) and a contact (`mailto:` or https URL). */
  readonly vapid: { readonly subject: string; readonly publicKey: string; readonly privateKey: string };
  /** Seconds the push service keeps an undelivered message. @default 86400 */
  readonly ttlSeconds?: number;
  /** @default 'normal' */
  readonly urgency?: 'very-low' | 'low' | 'normal' | 'high';
  /** @default - none */
  readonly suppressions?: () => SuppressionList | Promise<SuppressionList>;
  /** The HTTPS agent for the push service (a proxy, or a test's own CA). @default - Node's global agent */
  readonly agent?: Agent;
}

interface Subscription {
  endpoint: string;
  keys: { p256dh: string; auth: string };
}

function subscriptionOf(to: string): Subscription | undefined {
  try {
    const parsed = JSON.parse(to) as Partial<Subscription>;
    if (typeof parsed?.endpoint === 'string' && parsed.endpoint.startsWith('https://') && typeof parsed.keys?.p256dh === 'string' && typeof parsed.keys.auth === 'string') {
      return { endpoint: parsed.endpoint, keys: { p256dh: parsed.keys.p256dh, auth: parsed.keys.auth } };
    }
  } catch {
    /* reported below */
  }
  return undefined;
}

/** RFC 8030's Topic: at most 32 URL-safe base64 characters; a push service replaces a pending message of one topic. */
export function pushTopicOf(idempotencyKey: string): string {
  return createHash('sha256').update(idempotencyKey).digest('base64url').slice(0, 32);
}

/**
 * Web Push (RFC 8030, VAPID, aes128gcm) through `web-push`. `to` is the browser's `PushSubscription` as JSON. The
 * idempotency key becomes the `Topic` header: a retry of the same row replaces the undelivered first copy at the push
 * service instead of adding a second. A 404/410 answer means the subscription is gone: it is suppressed and the send
 * fails without retry.
 */
export class WebPushProvider implements NotificationProvider {
  public readonly name = 'web-push';
  public readonly channels: readonly Channel[] = ['push'];

  constructor(private readonly props: WebPushProviderProps) {}

  public async send(message: OutgoingMessage, options: SendOptions): Promise<DeliveryResult> {
    const subscription = subscriptionOf(message.to);
    if (message.channel !== 'push' || !message.push || !subscription) {
      const cause = new MessageNotSendableError('push', !subscription ? '`to` is not a PushSubscription JSON with an https endpoint and keys.p256dh/auth' : 'it has no push part (title, body)');
      throw new ProviderError(this.name, cause.message, { retryable: false, cause });
    }
    const suppressions = await this.props.suppressions?.();
    await suppressions?.assertSendable(this.name, 'push', subscription.endpoint);
    const payload = JSON.stringify({ title: message.push.title, body: message.push.body, ...(message.push.data ? { data: message.push.data } : {}) });
    // Loaded on first use: a function that imports the package but sends no Web Push does not pay for it at cold start.
    const { default: webpush } = await import('web-push');
    try {
      const result = await webpush.sendNotification(subscription, payload, {
        vapidDetails: { ...this.props.vapid },
        TTL: this.props.ttlSeconds ?? 86_400,
        urgency: this.props.urgency ?? 'normal',
        topic: pushTopicOf(options.idempotencyKey),
        contentEncoding: 'aes128gcm',
        ...(this.props.agent ? { agent: this.props.agent } : {}),
      });
      // Push services answer 201 with a Location naming the message resource.
      const location = result.headers['location'];
      return { providerMessageId: typeof location === 'string' && location ? location : options.idempotencyKey };
    } catch (error) {
      const status = (error as { statusCode?: number }).statusCode;
      if (status === 404 || status === 410) {
        await suppressions?.add('push', subscription.endpoint, 'subscription-expired', { status });
        const cause = new RecipientSuppressedError('push', subscription.endpoint, 'subscription-expired');
        throw new ProviderError(this.name, cause.message, { retryable: false, cause });
      }
      // 429 and 5xx (and no answer at all) may pass later; 400/403/413 will not.
      const retryable = status === undefined || status === 429 || status >= 500;
      throw new ProviderError(this.name, `the push service answered ${status ?? 'nothing'}: ${(error as Error).message}`, { retryable, cause: error });
    }
  }
}
