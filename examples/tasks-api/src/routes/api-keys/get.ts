import { handler } from '@framework/runtime';
import * as z from '../../lib/zod.js';
import { apiKeyView } from '../../lib/api-key-view.js';
import { apiKeyRecord } from '../../lib/integration-schemas.js';
import { apiKeys } from '../../lib/integrations.js';

/** GET /api-keys: the caller's keys (never the keys themselves), with their last-used time. Admins only. */
export const main = handler({
  scopes: ['tasks:admin'],
  response: z.object({ keys: z.array(apiKeyRecord) }),
  fn: async (_body, ctx) => ({ keys: (await apiKeys.list(ctx.auth.subject)).map(apiKeyView) }),
});
