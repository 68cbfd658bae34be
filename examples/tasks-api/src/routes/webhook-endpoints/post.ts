import { handler } from '@framework/runtime';
import { newWebhookEndpoint, registeredWebhookEndpoint } from '../../lib/integration-schemas.js';
import { webhooks } from '../../lib/integrations.js';

/**
 * POST /webhook-endpoints `{ url, eventTypes }` → 201 `{ id, url, eventTypes, secret }`: the caller's receiver for
 * events on their tasks (`task.created`), signed per the Standard Webhooks spec with `secret` (shown this once).
 */
export const main = handler({
  scopes: ['tasks:write'],
  body: newWebhookEndpoint,
  response: registeredWebhookEndpoint,
  fn: async (body, ctx) => {
    const endpoint = await webhooks.register(ctx.auth.subject, body.url, body.eventTypes);
    return { id: endpoint.id, url: endpoint.url, eventTypes: [...endpoint.eventTypes], secret: endpoint.secret };
  },
});
