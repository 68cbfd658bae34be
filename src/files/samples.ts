/*
 * Sample handler files written once when an intent is added in `.projenrc.ts` (core requires a handler file per
 * queue and schedule intent). After that the user owns them; projen never rewrites them.
 */

/** `src/queues/<id>.ts`: a consumer that handles each message and reports partial batch failures. */
export function queueConsumerSample(id: string): string {
  return `import { processRecords, taskHandler } from '@framework/runtime';
import type { SQSEvent } from 'aws-lambda';

/**
 * Consumer of the "${id}" queue. Each message body arrives parsed (JSON when it parses). A message whose handling
 * throws is reported as a batch item failure, so only it is redelivered after the visibility timeout.
 */
export const main = taskHandler<SQSEvent>(
  async (event, ctx) =>
    processRecords(event, async (message) => {
      ctx.logger.info('message received', { message });
    }),
  { retries: 1 },
);
`;
}

/** `src/crons/<id>.ts`: a scheduled task. */
export function cronSample(id: string): string {
  return `import { taskHandler } from '@framework/runtime';

/** The "${id}" scheduled task (the schedule is in .projenrc.ts). The scheduler retries a failed run twice. */
export const main = taskHandler(
  async () => {
    return { ranAt: new Date().toISOString() };
  },
  { retries: 2 },
);
`;
}

/** `src/functions/<id>.ts`: a standalone function, reachable with `invoke({ function: '<id>' }, { payload })`. */
export function functionSample(id: string): string {
  return `import { taskHandler } from '@framework/runtime';

/** The "${id}" function: its result is what \`invoke({ function: '${id}' }, { payload })\` returns. */
export const main = taskHandler<{ readonly name?: string }>(async (payload) => {
  return { greeting: \`hello \${payload?.name ?? 'world'}\` };
});
`;
}
