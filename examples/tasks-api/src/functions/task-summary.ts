import { asAllTenants } from '@framework-pro/tenancy';
import { taskHandler } from '@framework/runtime';
import '../lib/tenancy.js';
import { countTasks } from '../lib/tasks.js';

/**
 * Counts tasks by status across every tenant (invoked by the daily-summary cron; `POST /_dev/invoke/task-summary`
 * locally): the one place the app reads across tenants, through the logged escape hatch.
 */
export const main = taskHandler(async (_event, _ctx, service) => asAllTenants('daily task summary across tenants', () => countTasks(service.db)));
