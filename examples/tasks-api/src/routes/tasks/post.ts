import { createDefaultIdempotencyStore, handler, idempotencyMiddleware } from '@framework/runtime';
import { checkTitle, createTask, type TaskEvent } from '../../lib/tasks.js';

/**
 * POST /tasks `{ title }` → 201 the task. Idempotent: a retry with the same `Idempotency-Key` header gets the first
 * response back instead of a second task.
 */
export const main = handler(
  async (body: { title?: unknown } | undefined, ctx, service) => {
    const task = await createTask(service.db, ctx.auth.subject, checkTitle(body?.title));
    const event: TaskEvent = { type: 'task.created', taskId: task.id };
    await service.queues['task-events']!.send(event);
    return task;
  },
  { scopes: ['tasks:write'], middleware: [idempotencyMiddleware({ store: createDefaultIdempotencyStore() })] },
);
