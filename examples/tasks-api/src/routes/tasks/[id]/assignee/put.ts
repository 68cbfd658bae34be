import { sql } from '@framework/data';
import { Conflict, handler, NotFound } from '@framework/runtime';
import * as z from '../../../../lib/zod.js';
import { NOTIFY_QUEUE, notify } from '../../../../lib/notify.js';
import { tenancy } from '../../../../lib/tenancy.js';

/** How many open tasks one person may be assigned at once. */
export const MAX_OPEN_ASSIGNMENTS = 3;

const assignee = z.object({
  name: z.string().check(z.trim(), z.minLength(1), z.maxLength(100)),
  email: z.email(),
  phone: z.optional(z.string().check(z.regex(/^\+[1-9]\d{6,14}$/, 'an E.164 number such as +14155550100'))),
  locale: z.optional(z.string().check(z.regex(/^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$/, 'a language tag such as en or fr-CA'))),
});

/**
 * PUT /tasks/{id}/assignee `{ name, email, phone?, locale? }` → the assignment. In one transaction: the assignment,
 * the "task assigned" notification (email, and SMS when there is a phone) and the check of the assignee's open-task
 * limit; over the limit it is a 409 and the whole transaction rolls back, notification included: nothing is sent.
 */
export const main = handler({
  scopes: ['tasks:write'],
  middleware: [tenancy],
  body: assignee,
  fn: async (body, ctx, service) => {
    const taskId = ctx.pathParams.id!;
    if (!/^[0-9a-f-]{36}$/i.test(taskId)) throw new NotFound(`no task ${taskId}`);
    const queued = await service.db.transaction(async (tx) => {
      const task = await tx.maybeOne<{ title: string }>(sql`SELECT title FROM tasks WHERE id = ${taskId} AND owner = ${ctx.auth.subject} FOR UPDATE`);
      if (!task) throw new NotFound(`no task ${taskId}`);
      await tx.query(sql`
        INSERT INTO task_assignees (task_id, name, email, phone, locale) VALUES (${taskId}, ${body.name}, ${body.email}, ${body.phone ?? null}, ${body.locale ?? null})
        ON CONFLICT (task_id) DO UPDATE SET name = excluded.name, email = excluded.email, phone = excluded.phone, locale = excluded.locale, assigned_at = now()`);
      const sent = await notify.send(tx, {
        to: { email: body.email, ...(body.phone ? { phone: body.phone } : {}), ...(body.locale ? { locale: body.locale } : {}) },
        template: 'task-assigned',
        data: { taskTitle: task.title, assigneeName: body.name, assignedBy: ctx.auth.subject },
      });
      // Counted last, so the assignment just written counts: over the limit, everything above rolls back.
      const open = await tx.one<{ n: number }>(sql`
        SELECT count(*)::int AS n FROM task_assignees a JOIN tasks t ON t.id = a.task_id WHERE a.email = ${body.email} AND t.status = 'open'`);
      if (open.n > MAX_OPEN_ASSIGNMENTS) throw new Conflict(`${body.email} already has ${MAX_OPEN_ASSIGNMENTS} open tasks; finish or reassign one first`);
      return sent;
    });
    // After the commit: the dispatcher delivers now (if this call is lost, the sweeper delivers within minutes).
    await notify.dispatch(service.queues[NOTIFY_QUEUE]!, queued);
    return { taskId, assignee: body, notifications: queued.ids.length };
  },
});
