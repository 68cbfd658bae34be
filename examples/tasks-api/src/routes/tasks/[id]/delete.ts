import { NotFound, handler } from '@framework/runtime';
import { deleteAnyTask } from '../../../lib/tasks.js';
import { tenancy } from '../../../lib/tenancy.js';

/**
 * DELETE /tasks/{id}: removes any user's task of the admin's tenant. Admins only: `tasks:admin` is a scope of the
 * `admin` role alone.
 */
export const main = handler({
  scopes: ['tasks:admin'],
  middleware: [tenancy],
  fn: async (_body, ctx, service) => {
    if (!(await deleteAnyTask(service.db, ctx.pathParams.id!))) throw new NotFound(`no task ${ctx.pathParams.id}`);
    return undefined;
  },
});
