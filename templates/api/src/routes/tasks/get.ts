import { handler } from '@framework/runtime';
import { listTasks } from '../../lib/tasks.js';

/** `GET /tasks`: authenticated; the caller's token needs the `tasks:read` scope. */
export const main = handler(async () => ({ tasks: await listTasks() }), { scopes: ['tasks:read'] });
