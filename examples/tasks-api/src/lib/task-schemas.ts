import { z } from 'zod';

// The shapes the routes declare: the runtime checks requests against them (400 VALIDATION_FAILED listing every issue)
// and, under fw dev, the responses too; the handlers get the parsed, typed values.

export const taskStatus = z.enum(['open', 'done']);

const title = z.string().trim().min(1).max(200);

/** POST /tasks */
export const newTask = z.object({ title });

/** PUT /tasks/{id}: every field optional. */
export const taskChanges = z.object({ title: title.optional(), status: taskStatus.optional() });

/** GET /tasks */
export const taskFilter = z.object({ status: taskStatus.optional() });

/** A task as the API returns it. */
export const task = z.object({ id: z.string(), title: z.string(), status: taskStatus, createdAt: z.string(), updatedAt: z.string() });
