import { BadRequest } from '@framework/runtime';
import { query } from './db.js';

export type TaskStatus = 'open' | 'done';

export interface Task {
  readonly id: string;
  readonly title: string;
  readonly status: TaskStatus;
  readonly createdAt: string;
  readonly updatedAt: string;
}

interface TaskRow {
  id: string;
  title: string;
  status: TaskStatus;
  created_at: Date;
  updated_at: Date;
}

/** The event the API sends to the `task-events` queue. */
export interface TaskEvent {
  readonly type: 'task.created' | 'task.updated';
  readonly taskId: string;
}

const toTask = (row: TaskRow): Task => ({ id: row.id, title: row.title, status: row.status, createdAt: row.created_at.toISOString(), updatedAt: row.updated_at.toISOString() });

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function checkTitle(value: unknown): string {
  if (typeof value !== 'string' || !value.trim() || value.length > 200) throw new BadRequest('"title" must be a non-empty string of at most 200 characters');
  return value.trim();
}

export function checkStatus(value: unknown): TaskStatus {
  if (value !== 'open' && value !== 'done') throw new BadRequest('"status" must be "open" or "done"');
  return value;
}

export async function listTasks(owner: string, status?: TaskStatus): Promise<Task[]> {
  const result = status
    ? await query<TaskRow>('SELECT * FROM tasks WHERE owner = $1 AND status = $2 ORDER BY created_at, id', [owner, status])
    : await query<TaskRow>('SELECT * FROM tasks WHERE owner = $1 ORDER BY created_at, id', [owner]);
  return result.rows.map(toTask);
}

export async function createTask(owner: string, title: string): Promise<Task> {
  const result = await query<TaskRow>('INSERT INTO tasks (owner, title) VALUES ($1, $2) RETURNING *', [owner, title]);
  return toTask(result.rows[0]!);
}

/** Updates a task of this owner; undefined when there is none with that id. */
export async function updateTask(owner: string, id: string, changes: { title?: string; status?: TaskStatus }): Promise<Task | undefined> {
  if (!UUID.test(id)) return undefined;
  const result = await query<TaskRow>(
    'UPDATE tasks SET title = COALESCE($3, title), status = COALESCE($4, status), updated_at = now() WHERE id = $1 AND owner = $2 RETURNING *',
    [id, owner, changes.title ?? null, changes.status ?? null],
  );
  return result.rows[0] ? toTask(result.rows[0]) : undefined;
}

export async function countTasks(): Promise<{ open: number; done: number }> {
  const result = await query<{ status: TaskStatus; count: string }>('SELECT status, count(*) FROM tasks GROUP BY status');
  const counts = { open: 0, done: 0 };
  for (const row of result.rows) counts[row.status] = Number(row.count);
  return counts;
}

export async function recordEvent(event: TaskEvent): Promise<void> {
  await query('INSERT INTO task_events (task_id, type) VALUES ($1, $2)', [event.taskId, event.type]);
}
