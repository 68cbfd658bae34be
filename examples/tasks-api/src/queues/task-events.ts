import { processRecords, taskHandler, type SQSEvent } from '@framework/runtime';
import { indexTask } from '../lib/ai.js';
import { recordEvent, type TaskEvent } from '../lib/tasks.js';
import '../lib/tenancy.js';

/**
 * Consumer of `task-events`: records each event. A malformed message throws; only that record is redelivered
 * (partial batch response) and, after `maxReceiveCount` receives, it moves to the dead-letter queue. Each record is
 * handled as the tenant its message carries (the `fw-tenant` attribute), so the event row is that tenant's, and so is
 * the task's entry in the collection POST /ask searches.
 */
export const main = taskHandler<SQSEvent>(
  async (event, _ctx, service) =>
    processRecords<Partial<TaskEvent>>(event, async (message) => {
      if (typeof message?.taskId !== 'string' || (message.type !== 'task.created' && message.type !== 'task.updated')) {
        throw new Error(`malformed task event: ${JSON.stringify(message)}`);
      }
      await recordEvent(service.db, message as TaskEvent);
      // The task as POST /ask finds it: indexed here, off the request (idempotent per version).
      await indexTask(service.db, message.taskId);
    }),
  { retries: 1 },
);
