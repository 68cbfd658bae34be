import { NotFound, handler } from '@framework/runtime';
import { task, taskChanges } from '../../../lib/task-schemas.js';
import { updateTask, type TaskEvent } from '../../../lib/tasks.js';
import { tenancy } from '../../../lib/tenancy.js';

/** PUT /tasks/{id} `{ title?, status? }` → the updated task. */
export const main = handler({
  scopes: ['tasks:write'],
  middleware: [tenancy],
  body: taskChanges,
  response: task,
  fn: async (changes, ctx, service) => {
    const updated = await updateTask(service.db, ctx.auth.subject, ctx.pathParams.id!, changes);
    if (!updated) throw new NotFound(`no task ${ctx.pathParams.id}`);
    const event: TaskEvent = { type: 'task.updated', taskId: updated.id };
    await service.queues['task-events']!.send(event);
    return updated;
  },
});
