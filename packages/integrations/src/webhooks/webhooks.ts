import { randomUUID } from 'node:crypto';
import type { SQSEvent } from 'aws-lambda';
import type { Queryable } from '@framework/data';
import { getRootLogger, getService, NotFound, processRecords, type ProcessRecordsResult, type QueueClient } from '@framework/runtime';
import { defaultEnvelopeKeyProvider } from '../crypto/default-key-provider.js';
import { EnvelopeCipher } from '../crypto/envelope-cipher.js';
import { IntegrationsError } from '../errors.js';
import { signStandardWebhook } from './standard-webhook-signature.js';
import { WebhookEndpointStore, type WebhookEndpoint, type WebhookEndpointWithSecret } from './webhook-endpoint-store.js';
import { isWebhookDelivery, type WebhookDelivery, type WebhookEvent } from './webhook-message.js';
import { generateWebhookSecret } from './webhook-secret.js';

export interface WebhooksOptions {
  /** The queue deliveries go through: its id in the app (`service.queues[id]`), or a client. */
  readonly queue: string | QueueClient;
  /**
   * The database holding `fw_webhook_endpoints`.
   * @default - `service.db`
   */
  readonly db?: () => Queryable;
  /**
   * Attempts per message before it goes to the queue's dead-letter queue.
   * @default 8
   */
  readonly maxAttempts?: number;
  /**
   * The delay before attempt n+1: `baseSeconds * 2^(n-1)`, capped at `maxSeconds` (SQS allows 900), with jitter (half
   * to all of it).
   * @default { baseSeconds: 5, maxSeconds: 900 }
   */
  readonly backoff?: { readonly baseSeconds: number; readonly maxSeconds: number };
  /**
   * How long one attempt waits for the receiver's answer.
   * @default 10000
   */
  readonly timeoutMs?: number;
  /**
   * Encrypts the endpoints' signing secrets at rest.
   * @default - the integrations vault: the KMS key of `FW_INTEGRATIONS_KMS_KEY_ID` deployed, `.fw/integrations/vault.key` under `fw dev`
   */
  readonly cipher?: EnvelopeCipher;
}

/** An endpoint as registered: `secret` is for the owner to verify signatures with. */
export type RegisteredEndpoint = WebhookEndpointWithSecret;

/**
 * Outgoing webhooks signed per the Standard Webhooks spec and delivered through a queue: `send` enqueues, the queue's
 * consumer (`processDeliveries`) POSTs, and an attempt without a 2xx answer is sent again later with exponential
 * backoff, the same `webhook-id` each time, until `maxAttempts`; then the message fails into the dead-letter queue.
 */
export class Webhooks {
  private readonly store: WebhookEndpointStore;
  private readonly maxAttempts: number;
  private readonly backoff: { readonly baseSeconds: number; readonly maxSeconds: number };
  private readonly timeoutMs: number;
  private cipherValue: EnvelopeCipher | undefined;

  constructor(private readonly options: WebhooksOptions) {
    this.cipherValue = options.cipher;
    // The key provider is made on first use: a module that only sends needs no key at load.
    this.store = new WebhookEndpointStore(options.db ?? (() => getService().db), () => (this.cipherValue ??= new EnvelopeCipher(defaultEnvelopeKeyProvider())));
    this.maxAttempts = options.maxAttempts ?? 8;
    this.backoff = options.backoff ?? { baseSeconds: 5, maxSeconds: 900 };
    this.timeoutMs = options.timeoutMs ?? 10_000;
    if (!Number.isInteger(this.maxAttempts) || this.maxAttempts < 1) throw new IntegrationsError('FW_ERR_WEBHOOK_OPTIONS', `maxAttempts must be a whole number of at least 1, not ${this.maxAttempts}`);
    if (!(this.backoff.baseSeconds > 0) || !(this.backoff.maxSeconds >= this.backoff.baseSeconds) || this.backoff.maxSeconds > 900) {
      throw new IntegrationsError('FW_ERR_WEBHOOK_OPTIONS', 'backoff needs 0 < baseSeconds <= maxSeconds <= 900 (the longest delay a queue message can have)');
    }
  }

  private get queue(): QueueClient {
    return typeof this.options.queue === 'string' ? getService().queues[this.options.queue]! : this.options.queue;
  }

  /** Registers an owner's receiver; the answer carries the signing secret (a new one unless given). */
  async register(owner: string, url: string, eventTypes: readonly string[], secret = generateWebhookSecret()): Promise<RegisteredEndpoint> {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      throw new IntegrationsError('FW_ERR_WEBHOOK_OPTIONS', `The webhook URL ${JSON.stringify(url)} is not a URL; give an absolute https:// URL`);
    }
    if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') throw new IntegrationsError('FW_ERR_WEBHOOK_OPTIONS', `The webhook URL must be http(s), not ${parsed.protocol}`);
    if (!owner || eventTypes.length === 0 || eventTypes.some((t) => !t)) throw new IntegrationsError('FW_ERR_WEBHOOK_OPTIONS', 'register needs an owner and at least one event type (`*` for all)');
    return this.store.insert(owner, parsed.href, secret, eventTypes);
  }

  /** The owner's endpoints, without their secrets. */
  list(owner: string): Promise<WebhookEndpoint[]> {
    return this.store.list(owner);
  }

  /** The owner's endpoint with its signing secret (decrypted), to show it to its owner again; 404 when there is none. */
  async reveal(owner: string, id: string): Promise<WebhookEndpointWithSecret> {
    const endpoint = await this.store.getWithSecret(owner, id);
    if (!endpoint) throw new NotFound(`No webhook endpoint ${id} for this owner`, { code: 'WEBHOOK_ENDPOINT_NOT_FOUND' });
    return endpoint;
  }

  /**
   * Encrypts the signing secrets still stored in plain text (endpoints registered before the package encrypted them,
   * `migrations/0002_fw_webhook_secrets_encrypted.sql`); the number encrypted. Deliveries encrypt such a secret the first
   * time they read it; run this once after the migration so none stays in plain text.
   */
  encryptLegacySecrets(): Promise<number> {
    return this.store.encryptLegacySecrets();
  }

  async remove(owner: string, id: string): Promise<void> {
    if (!(await this.store.remove(owner, id))) throw new NotFound(`No webhook endpoint ${id} for this owner`, { code: 'WEBHOOK_ENDPOINT_NOT_FOUND' });
  }

  /** Enqueues `event` for one endpoint (by id, or as registered); resolves with the message id receivers see. */
  async send(endpoint: string | WebhookEndpoint, event: WebhookEvent): Promise<string> {
    const endpointId = typeof endpoint === 'string' ? endpoint : endpoint.id;
    const messageId = `msg_${randomUUID()}`;
    const payload = JSON.stringify({ type: event.type, timestamp: new Date().toISOString(), data: event.data });
    const delivery: WebhookDelivery = { kind: 'fw.webhook.delivery', endpointId, messageId, payload, attempt: 1 };
    await this.queue.send(delivery);
    return messageId;
  }

  /** Enqueues `event` for every endpoint of `owner` subscribed to its type; the message ids. */
  async sendToOwner(owner: string, event: WebhookEvent): Promise<string[]> {
    const endpoints = await this.store.forEvent(owner, event.type);
    return Promise.all(endpoints.map((endpoint) => this.send(endpoint, event)));
  }

  /**
   * One attempt: signs with the endpoint's secret at the current time and POSTs. Without a 2xx answer the message is
   * enqueued again with a delay (and this attempt counts as handled); the last attempt's failure throws, so the queue
   * moves the message to its dead-letter queue. A removed endpoint drops the message.
   */
  async deliver(delivery: WebhookDelivery): Promise<void> {
    const logger = getRootLogger();
    const endpoint = await this.store.byIdWithSecret(delivery.endpointId);
    if (!endpoint) {
      logger.warn('Webhook dropped: its endpoint was removed', { endpointId: delivery.endpointId, messageId: delivery.messageId });
      return;
    }
    const headers = signStandardWebhook(endpoint.secret, delivery.messageId, new Date(), delivery.payload);
    let outcome: string;
    try {
      const response = await fetch(endpoint.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: delivery.payload,
        signal: AbortSignal.timeout(this.timeoutMs),
        redirect: 'manual',
      });
      // Drained so the connection is reused; the receiver's body means nothing here.
      await response.arrayBuffer().catch(() => undefined);
      if (response.status >= 200 && response.status < 300) {
        logger.info('Webhook delivered', { endpointId: endpoint.id, messageId: delivery.messageId, attempt: delivery.attempt, status: response.status });
        return;
      }
      outcome = `answered ${response.status}`;
    } catch (error) {
      outcome = `failed: ${(error as Error).message}`;
    }
    if (delivery.attempt >= this.maxAttempts) {
      throw new IntegrationsError('FW_ERR_WEBHOOK_DELIVERY', `Webhook ${delivery.messageId} to endpoint ${endpoint.id}: attempt ${delivery.attempt} of ${this.maxAttempts} ${outcome}; giving up (the message goes to the dead-letter queue)`);
    }
    const delaySeconds = this.delayAfter(delivery.attempt);
    logger.warn(`Webhook attempt ${outcome}; next attempt in ${delaySeconds} s`, { endpointId: endpoint.id, messageId: delivery.messageId, attempt: delivery.attempt });
    await this.queue.send({ ...delivery, attempt: delivery.attempt + 1 }, { delaySeconds });
  }

  /** The queue consumer's body: `taskHandler<SQSEvent>((event) => webhooks.processDeliveries(event))`. */
  processDeliveries(event: SQSEvent): Promise<ProcessRecordsResult> {
    return processRecords(event, async (body) => {
      if (!isWebhookDelivery(body)) throw new IntegrationsError('FW_ERR_WEBHOOK_DELIVERY', 'A message on the webhook queue is not a webhook delivery (send with webhooks.send)');
      await this.deliver(body);
    });
  }

  /** Exponential, capped, with equal jitter (half fixed, half random), in whole seconds as queues take them. */
  private delayAfter(attempt: number): number {
    const full = Math.min(this.backoff.maxSeconds, this.backoff.baseSeconds * 2 ** (attempt - 1));
    return Math.max(1, Math.ceil(full / 2 + Math.random() * (full / 2)));
  }
}

/** Outgoing webhooks for this app (see `Webhooks`). */
export function createWebhooks(options: WebhooksOptions): Webhooks {
  return new Webhooks(options);
}
