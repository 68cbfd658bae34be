import { randomUUID } from 'node:crypto';
import * as path from 'node:path';
import { DEV_PATHS, type AppDefinition, type OutputValues, type QueueDefinition } from '@framework/core';
import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import { DevClock, type DevTimer } from '../clock/index.js';
import { AppendOnlyLog } from '../durable-log/index.js';
import { buildSqsEvent } from '../events/sqs-event.js';
import { sendError } from '../server/send-response.js';
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
  /** String message attributes, as sent (the tenant travels as `fw-tenant`). */
  readonly attributes?: Readonly<Record<string, string>>;
}

/** A message in the dead-letter queue, with when and why it moved. */
export interface DeadLetter {
  readonly messageId: string;
  readonly body: string;
  readonly receiveCount: number;
  readonly sentTimestamp: number;
  readonly movedAt: string;
  readonly attributes?: Readonly<Record<string, string>>;
}

/** How a queue's log records its state; each record is an absolute value, so replaying it twice changes nothing. */
export type QueueRecord =
  | { readonly op: 'message'; readonly id: string; readonly body: string; readonly sentAt: number; readonly visibleAt: number; readonly receiveCount: number; readonly firstReceiveAt?: number; readonly attributes?: Readonly<Record<string, string>> }
  | { readonly op: 'received'; readonly id: string; readonly receiveCount: number; readonly firstReceiveAt: number }
  | { readonly op: 'deleted'; readonly ids: readonly string[] }
  | { readonly op: 'dead'; readonly id: string; readonly body: string; readonly receiveCount: number; readonly sentAt: number; readonly movedAt: string; readonly attributes?: Readonly<Record<string, string>> }
  /** Dead letters sent back to the source queue (as new messages, written in the same append). */
  | { readonly op: 'redriven'; readonly ids: readonly string[] };

/**
 * One queue with SQS semantics, in process: a consumer receives batches of up to `batchSize` visible messages;
 * received messages stay hidden for `visibilityTimeout` seconds; a batch that fails (the consumer threw, timed out
 * or crashed) is redelivered after that, while a result with `batchItemFailures` redelivers only those records and
 * deletes the rest; a message about to be received for more than `maxReceiveCount` times moves to the dead-letter
 * queue instead (or, without one, keeps being redelivered as SQS would). One batch is in flight at a time.
 *
 * Opened with {@link LocalQueue.open}, it keeps its state in an append-only log: `send` resolves once the message is
 * on disk, a receive (with its count) is on disk before the consumer runs, and a restart finds every message that
 * was not deleted, in-flight ones visible again with their receive counts, and the dead letters. Constructed
 * directly, it keeps everything in memory.
 */
export class LocalQueue {
  private readonly messages = new Map<string, LocalMessage>();
  /** Sent, in memory, but not yet on disk: not delivered before `send` has been acknowledged. */
  private readonly unconfirmed = new Set<string>();
  readonly deadLetters: DeadLetter[] = [];
  private log?: AppendOnlyLog<QueueRecord>;
  private timer?: DevTimer;
  private timerAt = Infinity;
  private readonly clock: DevClock;
  private busy = false;
  private stopped = false;

  constructor(
    readonly id: string,
    private readonly context: Pick<DevContext, 'invoke' | 'currentApp' | 'log' | 'clock'>,
  ) {
    this.clock = context.clock ?? new DevClock();
  }

  /** A queue whose state lives in the log `file` (created if missing), restored from it, delivering at once. */
  static async open(id: string, context: Pick<DevContext, 'invoke' | 'currentApp' | 'log' | 'clock'>, file: string): Promise<LocalQueue> {
    const queue = new LocalQueue(id, context);
    const { log, records } = await AppendOnlyLog.open<QueueRecord>(file, { snapshot: () => queue.snapshot(), onRecover: (problem) => context.log.warn(`queue ${id}: ${problem}`) });
    queue.log = log;
    queue.restore(records);
    queue.scheduleNext();
    return queue;
  }

  private definition(): QueueDefinition | undefined {
    return this.context.currentApp().queues.find((q) => q.id === this.id);
  }

  /** Accepts a message; resolves once it is durable (on disk for an opened queue), rejects if it could not be kept. */
  async send(body: string, delaySeconds = 0, attributes?: Readonly<Record<string, string>>): Promise<LocalMessage> {
    const now = this.clock.now();
    const message: LocalMessage = { messageId: randomUUID(), body, sentTimestamp: now, receiveCount: 0, visibleAt: now + delaySeconds * 1000, ...(attributes ? { attributes } : {}) };
    // In memory first, so a compaction running meanwhile keeps it; delivered only once it is on disk.
    this.messages.set(message.messageId, message);
    if (this.log) {
      this.unconfirmed.add(message.messageId);
      try {
        await this.log.append(messageRecord(message));
      } catch (error) {
        this.messages.delete(message.messageId);
        throw error;
      } finally {
        this.unconfirmed.delete(message.messageId);
      }
    }
    this.schedule(message.visibleAt);
    return message;
  }

  /** Messages not yet deleted (in flight or waiting). */
  get depth(): number {
    return this.messages.size;
  }

  /**
   * Deletes every message not yet deleted (waiting, delayed, in flight), as SQS's PurgeQueue does; dead letters stay.
   * Resolves once the deletion is on disk. A test harness calls it between tests.
   */
  async purge(): Promise<number> {
    const ids = [...this.messages.keys()].filter((id) => !this.unconfirmed.has(id));
    for (const id of ids) this.messages.delete(id);
    if (ids.length && this.log) await this.log.append({ op: 'deleted', ids });
    return ids.length;
  }

  /** Messages received by the consumer and not yet visible again (SQS's ApproximateNumberOfMessagesNotVisible, delays aside). */
  get inFlight(): number {
    const now = this.clock.now();
    let count = 0;
    for (const message of this.messages.values()) if (message.receiveCount > 0 && message.visibleAt > now) count++;
    return count;
  }

  /**
   * Sends every dead letter back to this queue as a new message (receive count 0), as SQS's dead-letter queue redrive
   * to the source queue does. Resolves once that is on disk; if it could not be written nothing moved.
   */
  async redrive(): Promise<number> {
    if (this.deadLetters.length === 0) return 0;
    const moved = this.deadLetters.splice(0);
    const now = this.clock.now();
    const messages: LocalMessage[] = moved.map((d) => ({ messageId: randomUUID(), body: d.body, sentTimestamp: now, receiveCount: 0, visibleAt: now, ...(d.attributes ? { attributes: d.attributes } : {}) }));
    for (const message of messages) {
      this.messages.set(message.messageId, message);
      this.unconfirmed.add(message.messageId);
    }
    try {
      await this.log?.appendAll([...messages.map(messageRecord), { op: 'redriven', ids: moved.map((d) => d.messageId) }]);
    } catch (error) {
      for (const message of messages) this.messages.delete(message.messageId);
      this.deadLetters.unshift(...moved);
      throw error;
    } finally {
      for (const message of messages) this.unconfirmed.delete(message.messageId);
    }
    this.schedule(now);
    return moved.length;
  }

  /** The messages not yet deleted, oldest first (copies). */
  pending(): LocalMessage[] {
    return [...this.messages.values()].map((m) => ({ ...m }));
  }

  stop(): void {
    this.stopped = true;
    this.timer?.cancel();
  }

  /** Stops delivering and closes the log once what is pending is on disk. */
  async close(): Promise<void> {
    this.stop();
    await this.log?.close();
  }

  private snapshot(): QueueRecord[] {
    return [
      ...[...this.messages.values()].map(messageRecord),
      ...this.deadLetters.map((d): QueueRecord => ({ op: 'dead', id: d.messageId, body: d.body, receiveCount: d.receiveCount, sentAt: d.sentTimestamp, movedAt: d.movedAt, ...(d.attributes ? { attributes: d.attributes } : {}) })),
    ];
  }

  private restore(records: readonly QueueRecord[]): void {
    const dead = new Set<string>();
    for (const record of records) {
      if (record.op === 'message') {
        if (dead.has(record.id)) continue;
        this.messages.set(record.id, { messageId: record.id, body: record.body, sentTimestamp: record.sentAt, visibleAt: record.visibleAt, receiveCount: record.receiveCount, firstReceiveTimestamp: record.firstReceiveAt, ...(record.attributes ? { attributes: record.attributes } : {}) });
      } else if (record.op === 'received') {
        const message = this.messages.get(record.id);
        if (message) {
          message.receiveCount = record.receiveCount;
          message.firstReceiveTimestamp = record.firstReceiveAt;
        }
      } else if (record.op === 'deleted') {
        for (const id of record.ids) this.messages.delete(id);
      } else if (record.op === 'dead') {
        this.messages.delete(record.id);
        if (dead.has(record.id)) continue;
        dead.add(record.id);
        this.deadLetters.push({ messageId: record.id, body: record.body, receiveCount: record.receiveCount, sentTimestamp: record.sentAt, movedAt: record.movedAt, ...(record.attributes ? { attributes: record.attributes } : {}) });
      } else if (record.op === 'redriven') {
        const ids = new Set(record.ids);
        for (const id of ids) dead.add(id);
        this.deadLetters.splice(0, this.deadLetters.length, ...this.deadLetters.filter((d) => !ids.has(d.messageId)));
      }
    }
    // The consumer that held in-flight messages is gone: they are visible again (receive counts kept); delays stay.
    const now = this.clock.now();
    let inFlight = 0;
    for (const message of this.messages.values()) {
      if (message.receiveCount > 0 && message.visibleAt > now) {
        message.visibleAt = now;
        inFlight++;
      }
    }
    if (this.messages.size > 0 || this.deadLetters.length > 0) {
      this.context.log.info(`queue ${this.id}: kept from the last run: ${this.messages.size} messages (${inFlight} in flight, visible again), ${this.deadLetters.length} dead letters`);
    }
  }

  private schedule(at: number): void {
    if (this.stopped || at >= this.timerAt) return;
    this.timer?.cancel();
    this.timerAt = at;
    this.timer = this.clock.setTimer(at, () => {
      this.timerAt = Infinity;
      // Held work of the clock: a test's `advance`/`drain` returns after the batch (and what it sent) is handled.
      void this.clock.track(() => this.pump());
    });
  }

  private scheduleNext(): void {
    let next = Infinity;
    for (const message of this.messages.values()) if (!this.unconfirmed.has(message.messageId) && message.visibleAt < next) next = message.visibleAt;
    if (Number.isFinite(next)) this.schedule(next);
  }

  private async pump(): Promise<void> {
    if (this.busy || this.stopped) return;
    const queue = this.definition();
    if (!queue) return;
    this.busy = true;
    try {
      const now = this.clock.now();
      const batch: LocalMessage[] = [];
      const records: QueueRecord[] = [];
      for (const message of this.messages.values()) {
        if (batch.length >= queue.batchSize) break;
        if (message.visibleAt > now || this.unconfirmed.has(message.messageId)) continue;
        if (queue.deadLetterQueue && message.receiveCount >= queue.maxReceiveCount) {
          this.messages.delete(message.messageId);
          const dead: DeadLetter = { messageId: message.messageId, body: message.body, receiveCount: message.receiveCount, sentTimestamp: message.sentTimestamp, movedAt: new Date(now).toISOString(), ...(message.attributes ? { attributes: message.attributes } : {}) };
          this.deadLetters.push(dead);
          records.push({ op: 'dead', id: dead.messageId, body: dead.body, receiveCount: dead.receiveCount, sentAt: dead.sentTimestamp, movedAt: dead.movedAt, ...(dead.attributes ? { attributes: dead.attributes } : {}) });
          this.context.log.warn(`queue ${queue.id}: message ${message.messageId} moved to the dead-letter queue ${queue.deadLetterQueueName} after ${message.receiveCount} receives`);
          continue;
        }
        message.receiveCount++;
        message.firstReceiveTimestamp ??= now;
        message.visibleAt = now + queue.visibilityTimeout * 1000;
        batch.push(message);
        records.push({ op: 'received', id: message.messageId, receiveCount: message.receiveCount, firstReceiveAt: message.firstReceiveTimestamp });
      }
      // The receive counts are on disk before the consumer runs: a crash during the batch cannot undo them.
      if (records.length > 0 && this.log && !(await this.persist(records, `${batch.length} messages not delivered now (retried after ${queue.visibilityTimeout} s)`))) return;
      if (batch.length === 0 || this.stopped) return;
      const event = buildSqsEvent(this.context.currentApp().region, queue.queueName, batch.map((m) => ({ ...m })));
      const outcome = await this.context.invoke(queue, event);
      if (outcome.ok) {
        const failed = failedIds(outcome.value);
        const deleted = batch.filter((m) => !failed.has(m.messageId)).map((m) => m.messageId);
        for (const id of deleted) this.messages.delete(id);
        // Not awaited: a delete lost in a crash only means a redelivery, which at-least-once allows.
        if (deleted.length > 0 && this.log) void this.persist([{ op: 'deleted', ids: deleted }], `${deleted.length} deleted messages may be redelivered after a restart`);
        if (failed.size) this.context.log.warn(`queue ${queue.id}: ${failed.size} of ${batch.length} messages reported failed; redelivered after ${queue.visibilityTimeout} s`);
      } else {
        this.context.log.warn(`queue ${queue.id}: consumer failed (${outcome.errorType}: ${outcome.errorMessage}); ${batch.length} messages redelivered after ${queue.visibilityTimeout} s`);
      }
    } finally {
      this.busy = false;
      this.scheduleNext();
    }
  }

  /** Appends records; false (and a terminal line saying what it means) if the disk refused them. */
  private async persist(records: readonly QueueRecord[], consequence: string): Promise<boolean> {
    try {
      await this.log!.appendAll(records);
      return true;
    } catch (error) {
      if (!this.stopped) this.context.log.error(`queue ${this.id}: could not write to ${path.basename(this.log!.file)} (${(error as Error).message}); ${consequence}`);
      return false;
    }
  }
}

/** SQS's limits on a message's attributes: at most 10, names of letters, digits, `_`, `-`, `.` up to 256 characters. */
const MAX_ATTRIBUTES = 10;
const ATTRIBUTE_NAME = /^[A-Za-z0-9_.-]{1,256}$/;

/** The string attributes of a send request, or why they are refused. */
function messageAttributesOf(value: unknown): Readonly<Record<string, string>> | undefined | string {
  if (value === undefined) return undefined;
  const refused = `expected "messageAttributes" to be an object of at most ${MAX_ATTRIBUTES} string values named with letters, digits, "_", "-" or "." (SQS's limits)`;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return refused;
  const entries = Object.entries(value);
  if (entries.length > MAX_ATTRIBUTES || !entries.every(([name, v]) => ATTRIBUTE_NAME.test(name) && typeof v === 'string')) return refused;
  // No prototype: the names come from the request.
  return Object.freeze(Object.assign(Object.create(null) as Record<string, string>, Object.fromEntries(entries)));
}

function messageRecord(message: LocalMessage): QueueRecord {
  return { op: 'message', id: message.messageId, body: message.body, sentAt: message.sentTimestamp, visibleAt: message.visibleAt, receiveCount: message.receiveCount, firstReceiveAt: message.firstReceiveTimestamp, ...(message.attributes ? { attributes: message.attributes } : {}) };
}

/** `{ batchItemFailures: [{ itemIdentifier }] }`: the partial batch response of an SQS consumer. */
function failedIds(value: unknown): Set<string> {
  const failures = (value as { batchItemFailures?: unknown } | null)?.batchItemFailures;
  if (!Array.isArray(failures)) return new Set();
  return new Set(failures.map((f: { itemIdentifier?: unknown }) => f?.itemIdentifier).filter((id): id is string => typeof id === 'string'));
}

/**
 * The embedded queue engine: a `LocalQueue` per queue intent. Outputs `url` = `${FW_DEV_ENDPOINT}/_dev/queues/<id>`
 * (the runtime's queue client posts there when it runs under `fw dev`); routes:
 *
 * | route | answer |
 * |---|---|
 * | `POST /_dev/queues/<id>/messages` `{ body: string, delaySeconds?, messageAttributes?: { name: string } }` | 202 `{ messageId }` |
 * | `GET /_dev/queues/<id>/dead-letters` | 200 `{ queue, deadLetterQueue, messages: [...] }` |
 * | `GET /_dev/queues/<id>` | 200 `{ queue, depth, inFlight, deadLetters }` |
 * | `POST /_dev/queues/<id>/redrive` | 200 `{ redriven }`: the dead letters, sent again as new messages |
 * | `POST /_dev/queues/<id>/purge` | 200 `{ purged }`: the messages not yet deleted (dead letters stay) |
 *
 * Each queue keeps its messages in `.fw/queues/<id>.log` (see {@link LocalQueue}): a 202 means the message is on
 * disk, and it survives a restart or a `kill -9` of `fw dev`.
 */
export class EmbeddedQueueEngine implements DevEngine {
  readonly intent = 'queues' as const;
  readonly kind = 'embedded' as const;
  readonly queues = new Map<string, LocalQueue>();

  async start(app: AppDefinition, context: DevContext): Promise<EngineStart<'queues'>> {
    const outputs: Record<string, OutputValues<'queues'>> = {};
    for (const q of app.queues) {
      this.queues.set(q.id, await LocalQueue.open(q.id, context, queueLogFile(context.dataDir, q.id)));
      outputs[q.id] = { url: `${context.baseUrl}${DEV_PATHS.queues}/${q.id}` };
    }
    const queueOf = (id: string) => {
      const queue = this.queues.get(id);
      const definition = context.currentApp().queues.find((q) => q.id === id);
      return queue && definition ? { queue, definition } : undefined;
    };
    const notFound = (reply: FastifyReply, id: string) =>
      sendError(reply, 404, 'QUEUE_NOT_FOUND', `no queue "${id}" in this app; queues: ${[...this.queues.keys()].join(', ') || '(none)'}`, randomUUID());
    const plugin: FastifyPluginAsync = async (server) => {
      server.post<{ Params: { id: string } }>(`${DEV_PATHS.queues}/:id/messages`, async (request, reply) => {
        const found = queueOf(request.params.id);
        if (!found) return notFound(reply, request.params.id);
        let input: { body?: unknown; delaySeconds?: unknown; messageAttributes?: unknown };
        try {
          input = JSON.parse((request.body as Buffer | undefined)?.toString('utf8') || '{}') as typeof input;
        } catch {
          return sendError(reply, 400, 'INVALID_JSON', 'the request body is not JSON; send { "body": "<string>", "delaySeconds"?: n }');
        }
        const delay = input.delaySeconds ?? 0;
        if (typeof input.body !== 'string' || typeof delay !== 'number' || !Number.isInteger(delay) || delay < 0 || delay > 900) {
          return sendError(reply, 400, 'INVALID_MESSAGE', 'expected { "body": "<string>", "delaySeconds"?: 0-900 } (the body of an SQS message is a string: JSON.stringify objects)');
        }
        const attributes = messageAttributesOf(input.messageAttributes);
        if (typeof attributes === 'string') return sendError(reply, 400, 'INVALID_MESSAGE', attributes);
        let message: LocalMessage;
        try {
          message = await found.queue.send(input.body, delay, attributes);
        } catch {
          // Logged by the queue; the sender must not take it as accepted.
          return sendError(reply, 503, 'QUEUE_WRITE_FAILED', `the message could not be written to .fw/queues/${found.definition.id}.log, so it was not accepted; the fw dev console says why; send it again`);
        }
        return reply.code(202).send({ messageId: message.messageId });
      });
      server.get<{ Params: { id: string } }>(`${DEV_PATHS.queues}/:id/dead-letters`, async (request, reply) => {
        const found = queueOf(request.params.id);
        if (!found) return notFound(reply, request.params.id);
        return { queue: found.definition.queueName, deadLetterQueue: found.definition.deadLetterQueueName ?? null, messages: found.queue.deadLetters };
      });
      server.get<{ Params: { id: string } }>(`${DEV_PATHS.queues}/:id`, async (request, reply) => {
        const found = queueOf(request.params.id);
        if (!found) return notFound(reply, request.params.id);
        return { queue: found.definition.queueName, depth: found.queue.depth, inFlight: found.queue.inFlight, deadLetters: found.queue.deadLetters.length };
      });
      server.post<{ Params: { id: string } }>(`${DEV_PATHS.queues}/:id/redrive`, async (request, reply) => {
        const found = queueOf(request.params.id);
        if (!found) return notFound(reply, request.params.id);
        try {
          return { redriven: await found.queue.redrive() };
        } catch {
          return sendError(reply, 503, 'QUEUE_WRITE_FAILED', `the redrive could not be written to .fw/queues/${found.definition.id}.log, so nothing moved; the fw dev console says why; try again`);
        }
      });
      server.post<{ Params: { id: string } }>(`${DEV_PATHS.queues}/:id/purge`, async (request, reply) => {
        const found = queueOf(request.params.id);
        if (!found) return notFound(reply, request.params.id);
        try {
          return { purged: await found.queue.purge() };
        } catch {
          return sendError(reply, 503, 'QUEUE_WRITE_FAILED', `the purge could not be written to .fw/queues/${found.definition.id}.log; the fw dev console says why; try again`);
        }
      });
    };
    const kept = (q: QueueDefinition) => {
      const queue = this.queues.get(q.id)!;
      return queue.depth || queue.deadLetters.length ? `, kept ${queue.depth} messages and ${queue.deadLetters.length} dead letters` : '';
    };
    const summary = app.queues.map((q) => `${q.id}: batch ${q.batchSize}, visibility ${q.visibilityTimeout} s, max receives ${q.maxReceiveCount}${q.deadLetterQueue ? ', dead-letter queue' : ''}${kept(q)}`);
    return { outputs, plugin, summary };
  }

  async stop(): Promise<void> {
    await Promise.all([...this.queues.values()].map((queue) => queue.close()));
  }
}

/** Where a queue's log lives: `.fw/queues/<id>.log` (ids are letters, digits, `-` and `_`). */
export function queueLogFile(dataDir: string, id: string): string {
  return path.join(dataDir, 'queues', `${id}.log`);
}

export const embeddedQueues: EngineFactory = {
  intent: 'queues',
  kind: 'embedded',
  label: 'in-process queue',
  isAvailable: async () => true,
  isNeeded: (app) => app.queues.length > 0,
  create: () => new EmbeddedQueueEngine(),
};
