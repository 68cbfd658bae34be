import { envToken } from '../environment/env-token.js';
import { deadLetterQueueName, queueFunctionName, queueName } from '../naming/unit-names.js';
import type { FunctionUnit } from './function-unit.js';
import { outputRef, type IntentKindModule, type KindValue } from './intent-kind.js';

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

/** `infrastructure.queues` with `src/queues/<id>.ts`: a queue, its consumer function and its dead-letter queue. */
export const queuesKind: IntentKindModule<readonly QueueDefinition[], (typeof QUEUE_OUTPUTS)[number]> = {
  outputs: QUEUE_OUTPUTS,
  build: ({ project, stage, config, infrastructure, files }) => {
    const defaults = config.settings.functions;
    return (infrastructure.queues ?? []).map((q) => {
      const file = files.queues.find((f) => f.id === q.id)!;
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
