import { NotFound, handler } from '@framework/runtime';
import { checkStatus, checkTitle, updateTask, type TaskEvent } from '../../../lib/tasks.js';

/** PUT /tasks/{id} `{ title?, status? }` → the updated task. */
export const main = handler(
  async (body: { title?: unknown; status?: unknown } | undefined, ctx, service) => {
    const changes = {
      title: body?.title === undefined ? undefined : checkTitle(body.title),
      status: body?.status === undefined ? undefined : checkStatus(body.status),
    };
    const task = await updateTask(service.db, ctx.auth.subject, ctx.pathParams.id!, changes);
    if (!task) throw new NotFound(`no task ${ctx.pathParams.id}`);
    const event: TaskEvent = { type: 'task.updated', taskId: task.id };
    await service.queues['task-events']!.send(event);
    return task;
  },
  { scopes: ['tasks:write'] },
);
