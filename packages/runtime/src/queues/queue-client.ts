import { queueEnv } from '@framework/core/names';
import { currentTenant } from '../context/tenant.js';
import { RuntimeError } from '../errors.js';
import { devEndpoint, requireEnv } from '../invoke/function-name.js';

export interface SendOptions {
  /**
   * Seconds (0 to 900) before the message becomes visible to the consumer.
   * @default 0
   */
  readonly delaySeconds?: number;
}

export interface SendResult {
  readonly messageId: string;
}

/** Sends messages to one queue of the app. */
export interface QueueClient {
  /** The queue id, as declared in `infrastructure.queues`. */
  readonly id: string;
  /** Sends one message. A string body is sent as is; anything else as JSON (what `processRecords` parses). */
  send(body: unknown, options?: SendOptions): Promise<SendResult>;
}

type SqsModule = typeof import('@aws-sdk/client-sqs');
let sqs: Promise<{ mod: SqsModule; client: InstanceType<SqsModule['SQSClient']> }> | undefined;

function getSqs() {
  return (sqs ??= import('@aws-sdk/client-sqs').then((mod) => ({ mod, client: new mod.SQSClient({}) })));
}

/** Forget the cached SQS client (tests that point the SDK at a different endpoint). */
export function resetSqsClient(): void {
  sqs = undefined;
}

/**
 * The message attribute the tenant of the sending code travels in; `processRecords` restores it as the current
 * tenant of the consumer's record, so the consumer's statements, keys and logs are that tenant's.
 */
export const TENANT_MESSAGE_ATTRIBUTE = 'fw-tenant';

function tenantAttributes(): Record<string, string> | undefined {
  const tenant = currentTenant();
  return tenant ? { [TENANT_MESSAGE_ATTRIBUTE]: tenant.id } : undefined;
}

function messageBody(body: unknown): string {
  return typeof body === 'string' ? body : JSON.stringify(body ?? null);
}

async function sendLocal(id: string, url: string, body: string, options: SendOptions, attributes: Record<string, string> | undefined): Promise<SendResult> {
  const payload: { body: string; delaySeconds?: number; messageAttributes?: Record<string, string> } = { body };
  if (options.delaySeconds !== undefined) payload.delaySeconds = options.delaySeconds;
  if (attributes) payload.messageAttributes = attributes;
  let res: Response;
  try {
    res = await fetch(`${url.replace(/\/+$/, '')}/messages`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(payload) });
  } catch (error) {
    throw new RuntimeError('FW_ERR_QUEUE_SEND_FAILED', `Sending to queue ${id} through the dev server failed; is \`fw dev\` still running?`, { cause: error });
  }
  const text = await res.text();
  if (res.status !== 202 && res.status !== 200) {
    throw new RuntimeError('FW_ERR_QUEUE_SEND_FAILED', `The dev server answered ${res.status} when sending to queue ${id}: ${text.slice(0, 500)}`);
  }
  const parsed = JSON.parse(text) as { messageId?: string };
  return { messageId: parsed.messageId ?? '' };
}

async function sendSqs(id: string, url: string, body: string, options: SendOptions, attributes: Record<string, string> | undefined): Promise<SendResult> {
  const { mod, client } = await getSqs();
  const MessageAttributes = attributes
    ? Object.fromEntries(Object.entries(attributes).map(([name, value]) => [name, { DataType: 'String', StringValue: value }]))
    : undefined;
  try {
    const out = await client.send(new mod.SendMessageCommand({ QueueUrl: url, MessageBody: body, DelaySeconds: options.delaySeconds, MessageAttributes }));
    return { messageId: out.MessageId ?? '' };
  } catch (error) {
    throw new RuntimeError('FW_ERR_QUEUE_SEND_FAILED', `Sending to queue ${id} failed: ${(error as Error).message}`, { cause: error });
  }
}

/** The client of queue `id`; its URL comes from `FW_QUEUE_<ID>_URL`, read at send time. */
export function queueClient(id: string): QueueClient {
  return {
    id,
    async send(body: unknown, options: SendOptions = {}): Promise<SendResult> {
      const url = requireEnv(queueEnv(id).url, `queue "${id}" has no URL (is it declared in infrastructure.queues?)`);
      const text = messageBody(body);
      const attributes = tenantAttributes();
      return devEndpoint() ? sendLocal(id, url, text, options, attributes) : sendSqs(id, url, text, options, attributes);
    },
  };
}
