import type { Codec } from '../config/codec.js';
import { envToken } from '../environment/env-token.js';
import { deadLetterQueueName, queueFunctionName, queueName } from '../naming/unit-names.js';
import type { ConfigProblem } from '../errors.js';
import type { FunctionUnit } from './function-unit.js';
import { outputRef, type CodecKit, type IntentKindModule, type KindCheckContext, type KindValue } from './intent-kind.js';

declare module './function-unit.js' {
  /** `queue`: this kind's functions. */
  interface UnitKinds {
    readonly queue: true;
  }
}

/** A queue with its consumer (`src/queues/<id>.ts`). */
export interface QueueIntent {
  readonly id: string;
  /** Move messages that failed `maxReceiveCount` times to a dead-letter queue. @default true */
  readonly deadLetterQueue?: boolean;
  /** Messages per invocation, 1 to 10. @default 10 */
  readonly batchSize?: number;
  /** Consumer timeout, seconds. @default - the stage's `functions.timeout` */
  readonly timeout?: number;
  /** Consumer memory, MB. @default - the stage's `functions.memorySize` */
  readonly memorySize?: number;
  /** Seconds a received message stays hidden before redelivery. @default - six times the consumer timeout (at least 30) */
  readonly visibilityTimeout?: number;
  /** Receives before a message moves to the dead-letter queue. @default 3 */
  readonly maxReceiveCount?: number;
  /** How long an unconsumed message is kept, days (1-14). @default 4 */
  readonly retentionDays?: number;
}

/** The codec of `infrastructure.queues` (built from the kit: this module stays free of io-ts at run time). */
export function queuesCodec({ c, id, memorySize, timeout }: CodecKit): Codec<readonly QueueIntent[]> {
  return c.array(
    c.struct<QueueIntent>('a queue intent { id }', {
      id: c.required(id),
      deadLetterQueue: c.optional(c.boolean),
      batchSize: c.optional(c.integer(1, 10)),
      timeout: c.optional(timeout),
      memorySize: c.optional(memorySize),
      visibilityTimeout: c.optional(c.integer(0, 43200)),
      maxReceiveCount: c.optional(c.integer(1, 1000)),
      retentionDays: c.optional(c.integer(1, 14)),
    }),
  );
}

/** Outputs of a queue intent that reach functions. */
export const QUEUE_OUTPUTS = ['url'] as const;

/** Variables carrying a queue intent's outputs (any function may send to any queue of the app). */
export function queueEnv(id: string) {
  return { url: `FW_QUEUE_${envToken(id)}_URL` } as const;
}

export interface QueueDefinition extends FunctionUnit {
  readonly kind: 'queue';
  readonly queueName: string;
  readonly deadLetterQueue: boolean;
  /** Set when `deadLetterQueue` is true. */
  readonly deadLetterQueueName?: string;
  readonly batchSize: number;
  /** Seconds. */
  readonly visibilityTimeout: number;
  readonly maxReceiveCount: number;
  readonly retentionDays: number;
  /** Names of the variables carrying this queue's outputs. */
  readonly variables: ReturnType<typeof queueEnv>;
}

/** The checks the codec cannot make: names that clash with a dead-letter queue, visibility timeouts per stage. */
function checkQueues(queues: readonly QueueIntent[], context: KindCheckContext): ConfigProblem[] {
  return [...checkDeadLetterQueueNames(queues), ...checkVisibilityTimeouts(queues, context)];
}

/** Queue `x-dlq` would get the name of queue `x`'s dead-letter queue. */
function checkDeadLetterQueueNames(queues: readonly QueueIntent[]): ConfigProblem[] {
  const problems: ConfigProblem[] = [];
  queues.forEach((queue, index) => {
    const ownerIndex = queues.findIndex((other) => other.deadLetterQueue !== false && `${other.id}-dlq` === queue.id);
    if (ownerIndex < 0) return;
    const owner = queues[ownerIndex]!.id;
    problems.push({
      code: 'FW_ERR_CONFIG_NAME_CLASH',
      path: `infrastructure.queues[${index}].id`,
      message: `queue "${queue.id}" gets the same name as the dead-letter queue of queue "${owner}" (infrastructure.queues[${ownerIndex}]); rename it or set deadLetterQueue: false on "${owner}"`,
    });
  });
  return problems;
}

/**
 * The queue service refuses a Lambda event source whose queue hides a message for less time than the function may
 * run, so an explicit `visibilityTimeout` must cover the consumer's timeout in every stage (an intent timeout, else
 * the stage's preset or override).
 */
function checkVisibilityTimeouts(queues: readonly QueueIntent[], { stageFunctionTimeouts }: KindCheckContext): ConfigProblem[] {
  const problems: ConfigProblem[] = [];
  queues.forEach((queue, index) => {
    if (queue.visibilityTimeout === undefined) return;
    for (const { stage, timeout: stageTimeout } of stageFunctionTimeouts) {
      const timeout = queue.timeout ?? stageTimeout;
      if (timeout !== undefined && queue.visibilityTimeout < timeout) {
        problems.push({
          code: 'FW_ERR_CONFIG_INVALID_VALUE',
          path: `infrastructure.queues[${index}].visibilityTimeout`,
          message: `expected at least the consumer timeout (${timeout} s in stage ${stage}), got ${queue.visibilityTimeout}; raise it or lower the queue's timeout`,
        });
        return;
      }
    }
  });
  return problems;
}

/** `infrastructure.queues` with `src/queues/<id>.ts`: a queue, its consumer function and its dead-letter queue. */
export const queuesKind: IntentKindModule<readonly QueueIntent[], readonly QueueDefinition[], (typeof QUEUE_OUTPUTS)[number], 'queues'> = {
  configKey: 'queues',
  ids: 'flat',
  handlerFolder: { dir: 'src/queues', what: 'queue consumer', example: (id) => `{ id: '${id}' }` },
  codec: queuesCodec,
  check: checkQueues,
  outputs: QUEUE_OUTPUTS,
  build: (intents, { project, stage, config, files }) => {
    const defaults = config.settings.functions;
    return (intents ?? []).map((q) => {
      const file = (files.queues ?? []).find((f) => f.id === q.id)!;
      const timeout = q.timeout ?? defaults.timeout;
      const deadLetterQueue = q.deadLetterQueue ?? true;
      return {
        kind: 'queue',
        id: q.id,
        file: file.file,
        functionName: queueFunctionName(project, stage, q.id),
        memorySize: q.memorySize ?? defaults.memorySize,
        timeout,
        environment: {},
        queueName: queueName(project, stage, q.id),
        deadLetterQueue,
        deadLetterQueueName: deadLetterQueue ? deadLetterQueueName(project, stage, q.id) : undefined,
        batchSize: q.batchSize ?? 10,
        visibilityTimeout: q.visibilityTimeout ?? Math.min(43200, Math.max(30, 6 * timeout)),
        maxReceiveCount: q.maxReceiveCount ?? 3,
        retentionDays: q.retentionDays ?? 4,
        variables: queueEnv(q.id),
      };
    });
  },
  environment: (queues) => {
    const env: Record<string, KindValue<(typeof QUEUE_OUTPUTS)[number]>> = {};
    for (const { id, variables } of queues) env[variables.url] = outputRef(id, 'url');
    return env;
  },
  units: (queues) => queues,
};
