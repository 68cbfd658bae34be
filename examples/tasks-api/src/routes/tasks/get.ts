import { handler } from '@framework/runtime';
import { taskFilter } from '../../lib/task-schemas.js';
import { listTasks } from '../../lib/tasks.js';
// Registers the API-key verifier this route's `auth` needs.
import '../../lib/integrations.js';
import { tenancy } from '../../lib/tenancy.js';

/**
 * GET /tasks[?status=open|done]: the caller's tasks of the caller's tenant (row-level security), for a bearer token or
 * an API key (`Authorization: Bearer sk_...`) with `tasks:read`.
 */
export const main = handler({
  scopes: ['tasks:read'],
  auth: ['jwt', 'apiKey'],
  middleware: [tenancy],
  query: taskFilter,
  fn: async (_body, ctx, service) => ({ tasks: await listTasks(service.db, ctx.auth.subject, ctx.input.query.status) }),
});
