import { taskHandler } from '@framework/runtime';
import { countTasks } from '../lib/tasks.js';

/** Counts tasks by status (invoked by the daily-summary cron; `POST /_dev/invoke/task-summary` locally). */
export const main = taskHandler(async (_event, _ctx, service) => countTasks(service.db));
