import { NotFound, handler } from '@framework/runtime';
import { deleteAnyTask } from '../../../lib/tasks.js';

/** DELETE /tasks/{id}: removes any user's task. Admins only: `tasks:admin` is a scope of the `admin` role alone. */
export const main = handler({
  scopes: ['tasks:admin'],
  fn: async (_body, ctx, service) => {
    if (!(await deleteAnyTask(service.db, ctx.pathParams.id!))) throw new NotFound(`no task ${ctx.pathParams.id}`);
    return undefined;
  },
});
