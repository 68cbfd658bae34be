import { handler } from '@framework/runtime';
import { taskFilter } from '../../lib/task-schemas.js';
import { listTasks } from '../../lib/tasks.js';

/** GET /tasks[?status=open|done]: the caller's tasks. */
export const main = handler({
  scopes: ['tasks:read'],
  query: taskFilter,
  fn: async (_body, ctx, service) => ({ tasks: await listTasks(service.db, ctx.auth.subject, ctx.input.query.status) }),
});
