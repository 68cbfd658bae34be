import { sql } from '@framework/data';
import { handler, NotFound } from '@framework/runtime';
import * as z from '../../../../lib/zod.js';
import { chat } from '../../../../lib/chat.js';
import { tenancy } from '../../../../lib/tenancy.js';

const body = z.optional(z.object({ members: z.optional(z.array(z.string().check(z.minLength(1), z.maxLength(256))).check(z.maxLength(50))) }));

/**
 * POST /tasks/{id}/chat `{ members? }` → the task's discussion room, created on first use. Only the task's owner may
 * open it (a task is its owner's); they become the room's owner and may add the people to talk with (their user
 * ids), who then join it over the WebSocket API (`{ action: 'chat', op: 'join', roomId }`) or read it over HTTP.
 */
export const main = handler({
  scopes: ['tasks:write'],
  middleware: [tenancy],
  body,
  fn: async (input, ctx, service) => {
    const taskId = ctx.pathParams.id!;
    if (!/^[0-9a-f-]{36}$/i.test(taskId)) throw new NotFound(`no task ${taskId}`);
    const task = await service.db.maybeOne<{ id: string; title: string }>(sql`SELECT id, title FROM tasks WHERE id = ${taskId} AND owner = ${ctx.auth.subject}`);
    if (!task) throw new NotFound(`no task ${taskId}`);
    const me = chat.as(ctx.auth.subject, service.db);
    const room = await me.resourceRoom(`task:${task.id}`, { name: task.title, join: true });
    for (const userId of input?.members ?? []) await me.addMember(room.id, userId);
    return { room, members: await me.roomMembers(room.id) };
  },
});
