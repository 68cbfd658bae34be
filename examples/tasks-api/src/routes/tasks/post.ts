import { createDefaultIdempotencyStore, handler, idempotencyMiddleware } from '@framework/runtime';
import { newTask, task } from '../../lib/task-schemas.js';
import { webhooks } from '../../lib/integrations.js';
import { publishTaskUpdate } from '../../lib/task-updates.js';
import { createTask, type TaskEvent } from '../../lib/tasks.js';
import { tenancy } from '../../lib/tenancy.js';

/**
 * POST /tasks `{ title }` → 201 the task. Idempotent: a retry with the same `Idempotency-Key` header gets the first
 * response back instead of a second task. The owner's open WebSocket connections get `{ type: 'task.created', task }`.
 */
export const main = handler({
  scopes: ['tasks:write'],
  // The tenant first: the idempotency record, the task row and the queue message are then the tenant's.
  middleware: [tenancy, idempotencyMiddleware({ store: createDefaultIdempotencyStore() })],
  body: newTask,
  response: task,
  fn: async (body, ctx, service) => {
    const created = await createTask(service.db, ctx.auth.subject, body.title);
    // Carries "tenant" by itself (the runtime adds the current tenant to every line).
    ctx.logger.info('task created', { taskId: created.id });
    const event: TaskEvent = { type: 'task.created', taskId: created.id };
    await service.queues['task-events']!.send(event);
    await publishTaskUpdate(service, ctx.logger, ctx.auth.subject, { type: 'task.created', task: created });
    await webhooks.sendToOwner(ctx.auth.subject, { type: 'task.created', data: created });
    return created;
  },
});
