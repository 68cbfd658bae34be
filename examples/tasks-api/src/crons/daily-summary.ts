import { invoke, taskHandler } from '@framework/runtime';

/** Every day at 07:00 UTC: asks the `task-summary` function for the counts and logs them. */
export const main = taskHandler(
  async (_event, ctx) => {
    const summary = await invoke<{ open: number; done: number }>({ function: 'task-summary' }, { payload: { requestedBy: 'daily-summary' } });
    ctx.logger.info('daily task summary', summary);
    return summary;
  },
  { retries: 2 },
);
