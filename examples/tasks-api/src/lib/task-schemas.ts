import * as z from './zod.js';

// The shapes the routes declare: the runtime checks requests against them (400 VALIDATION_FAILED listing every issue)
// and, under fw dev, the responses too; the handlers get the parsed, typed values.
// Written with `zod/mini` (./zod.ts says why).

export const taskStatus = z.enum(['open', 'done']);

const title = z.string().check(z.trim(), z.minLength(1), z.maxLength(200));

/** POST /tasks */
export const newTask = z.object({ title });

/** PUT /tasks/{id}: every field optional. */
export const taskChanges = z.object({ title: z.optional(title), status: z.optional(taskStatus) });

/** GET /tasks */
export const taskFilter = z.object({ status: z.optional(taskStatus) });

/** A task as the API returns it. */
export const task = z.object({ id: z.string(), title: z.string(), status: taskStatus, createdAt: z.string(), updatedAt: z.string() });
