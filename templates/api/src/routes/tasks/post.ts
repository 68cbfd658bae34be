import { BadRequest, handler } from '@framework/runtime';
import { checkNewTask, createTask, type NewTask } from '../../lib/tasks.js';

/** `POST /tasks`: authenticated (`tasks:write`); answers 201 with the new task. */
export const main = handler(
  async (body: unknown) => {
    const problem = checkNewTask(body);
    if (problem) throw new BadRequest(problem);
    return createTask(body as NewTask);
  },
  { scopes: ['tasks:write'] },
);
