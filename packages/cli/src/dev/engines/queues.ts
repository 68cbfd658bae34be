import { randomUUID } from 'node:crypto';
import type { AppDefinition, QueueDefinition } from '@framework/core';
import type { FastifyPluginAsync } from 'fastify';
import { buildSqsEvent } from '../events/sqs-event.js';
import type { DevContext, DevEngine, EngineFactory, EngineStart } from './engine.js';

/** A message held by the local queue. */
export interface LocalMessage {
  readonly messageId: string;
  readonly body: string;
  readonly sentTimestamp: number;
  firstReceiveTimestamp?: number;
  receiveCount: number;
  /** Epoch ms when it becomes visible again (delay or visibility timeout). */
  visibleAt: number;
}

/** A message in the dead-letter queue, with when and why it moved. */
export interface DeadLetter {
  readonly messageId: string;
  readonly body: string;
  readonly receiveCount: number;
  readonly sentTimestamp: number;
  readonly movedAt: string;
}

/**
 * One queue with SQS semantics, in process: a consumer receives batches of up to `batchSize` visible messages;
 * received messages stay hidden for `visibilityTimeout` seconds; a batch that fails (the consumer threw, timed out
 * or crashed) is redelivered after that, while a result with `batchItemFailures` redelivers only those records and
 * deletes the rest; a message about to be received for more than `maxReceiveCount` times moves to the dead-letter
 * queue instead (or, without one, keeps being redelivered as SQS would). One batch is in flight at a time.
 */
export class LocalQueue {
  private readonly messages: LocalMessage[] = [];
  readonly deadLetters: DeadLetter[] = [];
  private timer?: NodeJS.Timeout;
  private timerAt = Infinity;
  private busy = false;
  private stopped = false;

  constructor(
    readonly id: string,
    private readonly context: Pick<DevContext, 'invoke' | 'currentApp' | 'log'>,
  ) {}

  private definition(): QueueDefinition | undefined {
    return this.context.currentApp().queues.find((q) => q.id === this.id);
  }

  send(body: string, delaySeconds = 0): LocalMessage {
    const now = Date.now();
    const message: LocalMessage = { messageId: randomUUID(), body, sentTimestamp: now, receiveCount: 0, visibleAt: now + delaySeconds * 1000 };
    this.messages.push(message);
    this.schedule(message.visibleAt);
    return message;
  }

  /** Messages not yet deleted (in flight or waiting). */
  get depth(): number {
    return this.messages.length;
  }

  stop(): void {
    this.stopped = true;
    clearTimeout(this.timer);
  }

  private schedule(at: number): void {
    if (this.stopped || at >= this.timerAt) return;
    clearTimeout(this.timer);
    this.timerAt = at;
    this.timer = setTimeout(() => {
      this.timerAt = Infinity;
      void this.pump();
    }, Math.max(0, at - Date.now()));
  }

  private async pump(): Promise<void> {
    if (this.busy || this.stopped) return;
    const queue = this.definition();
    if (!queue) return;
    const now = Date.now();
    const batch: LocalMessage[] = [];
    for (const message of [...this.messages]) {
      if (batch.length >= queue.batchSize) break;
      if (message.visibleAt > now) continue;
      if (queue.deadLetterQueue && message.receiveCount >= queue.maxReceiveCount) {
        this.remove(message);
        this.deadLetters.push({ messageId: message.messageId, body: message.body, receiveCount: message.receiveCount, sentTimestamp: message.sentTimestamp, movedAt: new Date(now).toISOString() });
        this.context.log.warn(`queue ${queue.id}: message ${message.messageId} moved to the dead-letter queue ${queue.deadLetterQueueName} after ${message.receiveCount} receives`);
        continue;
      }
      message.receiveCount++;
      message.firstReceiveTimestamp ??= now;
      message.visibleAt = now + queue.visibilityTimeout * 1000;
      batch.push(message);
    }
    if (batch.length > 0) {
      this.busy = true;
      try {
        const event = buildSqsEvent(this.context.currentApp().region, queue.queueName, batch.map((m) => ({ ...m })));
        const outcome = await this.context.invoke(queue, event);
        if (outcome.ok) {
          const failed = failedIds(outcome.value);
          for (const message of batch) if (!failed.has(message.messageId)) this.remove(message);
          if (failed.size) this.context.log.warn(`queue ${queue.id}: ${failed.size} of ${batch.length} messages reported failed; redelivered after ${queue.visibilityTimeout} s`);
        } else {
          this.context.log.warn(`queue ${queue.id}: consumer failed (${outcome.errorType}: ${outcome.errorMessage}); ${batch.length} messages redelivered after ${queue.visibilityTimeout} s`);
        }
      } finally {
        this.busy = false;
      }
    }
    const next = Math.min(...this.messages.map((m) => m.visibleAt));
    if (Number.isFinite(next)) this.schedule(next);
  }

  private remove(message: LocalMessage): void {
    const index = this.messages.indexOf(message);
    if (index !== -1) this.messages.splice(index, 1);
  }
}

/** `{ batchItemFailures: [{ itemIdentifier }] }`: the partial batch response of an SQS consumer. */
function failedIds(value: unknown): Set<string> {
  const failures = (value as { batchItemFailures?: unknown } | null)?.batchItemFailures;
  if (!Array.isArray(failures)) return new Set();
  return new Set(failures.map((f: { itemIdentifier?: unknown }) => f?.itemIdentifier).filter((id): id is string => typeof id === 'string'));
}

/**
 * The embedded queue engine: a `LocalQueue` per queue intent. Outputs `url` = `${FW_DEV_ENDPOINT}/_dev/queues/<id>`
 * (CONTRACTS §3); routes:
 *
 * | route | answer |
 * |---|---|
 * | `POST /_dev/queues/<id>/messages` `{ body: string, delaySeconds? }` | 202 `{ messageId }` |
 * | `GET /_dev/queues/<id>/dead-letters` | 200 `{ queue, deadLetterQueue, messages: [...] }` |
 * | `GET /_dev/queues/<id>` | 200 `{ queue, depth, deadLetters }` |
 *
 * Messages are kept in memory: a restart of `fw dev` empties the queues.
 */
export class EmbeddedQueueEngine implements DevEngine {
  readonly intent = 'queues' as const;
  readonly kind = 'embedded' as const;
  readonly queues = new Map<string, LocalQueue>();

  async start(app: AppDefinition, context: DevContext): Promise<EngineStart> {
    const outputs: Record<string, Record<string, string>> = {};
    for (const q of app.queues) {
      this.queues.set(q.id, new LocalQueue(q.id, context));
      outputs[q.id] = { url: `${context.baseUrl}/_dev/queues/${q.id}` };
    }
    const queueOf = (id: string) => {
      const queue = this.queues.get(id);
      const definition = context.currentApp().queues.find((q) => q.id === id);
      return queue && definition ? { queue, definition } : undefined;
    };
    const notFound = (id: string) => ({
      error: { code: 'QUEUE_NOT_FOUND', message: `no queue "${id}" in this app; queues: ${[...this.queues.keys()].join(', ') || '(none)'}`, requestId: randomUUID() },
    });
    const plugin: FastifyPluginAsync = async (server) => {
      server.post<{ Params: { id: string } }>('/_dev/queues/:id/messages', async (request, reply) => {
        const found = queueOf(request.params.id);
        if (!found) return reply.code(404).send(notFound(request.params.id));
        let input: { body?: unknown; delaySeconds?: unknown };
        try {
          input = JSON.parse((request.body as Buffer | undefined)?.toString('utf8') || '{}') as typeof input;
        } catch {
          return reply.code(400).send({ error: { code: 'INVALID_JSON', message: 'the request body is not JSON; send { "body": "<string>", "delaySeconds"?: n }', requestId: request.id } });
        }
        const delay = input.delaySeconds ?? 0;
        if (typeof input.body !== 'string' || typeof delay !== 'number' || !Number.isInteger(delay) || delay < 0 || delay > 900) {
          return reply.code(400).send({ error: { code: 'INVALID_MESSAGE', message: 'expected { "body": "<string>", "delaySeconds"?: 0-900 } (the body of an SQS message is a string: JSON.stringify objects)', requestId: request.id } });
        }
        const message = found.queue.send(input.body, delay);
        return reply.code(202).send({ messageId: message.messageId });
      });
      server.get<{ Params: { id: string } }>('/_dev/queues/:id/dead-letters', async (request, reply) => {
        const found = queueOf(request.params.id);
        if (!found) return reply.code(404).send(notFound(request.params.id));
        return { queue: found.definition.queueName, deadLetterQueue: found.definition.deadLetterQueueName ?? null, messages: found.queue.deadLetters };
      });
      server.get<{ Params: { id: string } }>('/_dev/queues/:id', async (request, reply) => {
        const found = queueOf(request.params.id);
        if (!found) return reply.code(404).send(notFound(request.params.id));
        return { queue: found.definition.queueName, depth: found.queue.depth, deadLetters: found.queue.deadLetters.length };
      });
    };
    const summary = app.queues.map((q) => `${q.id}: batch ${q.batchSize}, visibility ${q.visibilityTimeout} s, max receives ${q.maxReceiveCount}${q.deadLetterQueue ? ', dead-letter queue' : ''}`);
    return { outputs, plugin, summary };
  }

  async stop(): Promise<void> {
    for (const queue of this.queues.values()) queue.stop();
  }
}

export const embeddedQueues: EngineFactory = {
  intent: 'queues',
  kind: 'embedded',
  label: 'in-process queue',
  isAvailable: async () => true,
  isNeeded: (app) => app.queues.length > 0,
  create: () => new EmbeddedQueueEngine(),
};
