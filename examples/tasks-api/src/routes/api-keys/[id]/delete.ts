import { handler } from '@framework/runtime';
import { apiKeys } from '../../../lib/integrations.js';

/** DELETE /api-keys/{id}: revokes one of the caller's keys (204; 404 when there is no such active key). Admins only. */
export const main = handler({
  scopes: ['tasks:admin'],
  fn: async (_body, ctx) => {
    await apiKeys.revoke(ctx.auth.subject, ctx.pathParams.id!);
    return undefined;
  },
});
