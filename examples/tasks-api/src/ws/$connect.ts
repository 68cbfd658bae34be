import { wsHandler } from '@framework/runtime';
import { taskTopic } from '../lib/task-updates.js';

/**
 * `ws://<host>/_ws?token=<access token>` (deployed: the API's `wss://` URL): a connection with `tasks:read` receives
 * `{ type: 'task.created', task }` whenever one of its user's tasks is created, from any client.
 */
export const main = wsHandler(
  async (_message, ctx, service) => {
    await service.ws.subscribe(ctx.connectionId, taskTopic(ctx.auth.subject));
  },
  { scopes: ['tasks:read'] },
);
