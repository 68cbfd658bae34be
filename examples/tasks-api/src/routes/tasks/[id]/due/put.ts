import { handler, NotFound } from '@framework/runtime';
import { sql } from '@framework/data';
import * as z from '../../../../lib/zod.js';
import type { TaskEvent } from '../../../../lib/tasks.js';
import { tenancy } from '../../../../lib/tenancy.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** PUT /tasks/{id}/due `{ dueAt }` (ISO 8601, or null to clear) → the task's id and due date. */
export const main = handler({
  scopes: ['tasks:write'],
  middleware: [tenancy],
  body: z.object({ dueAt: z.nullable(z.iso.datetime({ offset: true })) }),
  response: z.object({ id: z.string(), dueAt: z.nullable(z.string()) }),
  fn: async (body, ctx, service) => {
    const id = ctx.pathParams.id!;
    const row = UUID.test(id)
      ? await service.db.maybeOne<{ id: string; due_at: Date | null }>(
          sql`UPDATE tasks SET due_at = ${body.dueAt}, updated_at = now() WHERE id = ${id} AND owner = ${ctx.auth.subject} RETURNING id, due_at`,
        )
      : undefined;
    if (!row) throw new NotFound(`No task ${id}`);
    // The task changed: its consumers (the event log, the collection POST /ask searches) hear of it.
    const event: TaskEvent = { type: 'task.updated', taskId: row.id };
    await service.queues['task-events']!.send(event);
    return { id: row.id, dueAt: row.due_at?.toISOString() ?? null };
  },
});
