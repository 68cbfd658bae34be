import { handler } from '@framework/runtime';
import { checkStatus, listTasks } from '../../lib/tasks.js';

/** GET /tasks[?status=open|done]: the caller's tasks. */
export const main = handler(
  async (_body, ctx, service) => {
    const status = ctx.query.status === undefined ? undefined : checkStatus(ctx.query.status);
    return { tasks: await listTasks(service.db, ctx.auth.subject, status) };
  },
  { scopes: ['tasks:read'] },
);
