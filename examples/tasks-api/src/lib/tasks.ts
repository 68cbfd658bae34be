import { sql, type Queryable } from '@framework/data';

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

// Every function takes the database (`service.db` in handlers, or a transaction), so the same code runs in a route,
// a queue consumer, a function or inside `db.transaction(...)`. The table comes from migrations/0001_create_tasks.sql.

export async function listTasks(db: Queryable, owner: string, status?: TaskStatus): Promise<Task[]> {
  const rows = await db.many<TaskRow>(sql`SELECT * FROM tasks WHERE owner = ${owner} ${status ? sql`AND status = ${status}` : sql.empty} ORDER BY created_at, id`);
  return rows.map(toTask);
}

export async function createTask(db: Queryable, owner: string, title: string): Promise<Task> {
  return toTask(await db.one<TaskRow>(sql`INSERT INTO tasks (owner, title) VALUES (${owner}, ${title}) RETURNING *`));
}

/** Updates a task of this owner; undefined when there is none with that id. */
export async function updateTask(db: Queryable, owner: string, id: string, changes: { title?: string | undefined; status?: TaskStatus | undefined }): Promise<Task | undefined> {
  if (!UUID.test(id)) return undefined;
  const row = await db.maybeOne<TaskRow>(sql`
    UPDATE tasks SET title = COALESCE(${changes.title ?? null}, title), status = COALESCE(${changes.status ?? null}, status), updated_at = now()
    WHERE id = ${id} AND owner = ${owner} RETURNING *`);
  return row ? toTask(row) : undefined;
}

/**
 * Deletes a task whoever owns it (an admin's operation: the route requires `tasks:admin`); false when there is none
 * with that id.
 */
export async function deleteAnyTask(db: Queryable, id: string): Promise<boolean> {
  if (!UUID.test(id)) return false;
  const row = await db.maybeOne<{ id: string }>(sql`DELETE FROM tasks WHERE id = ${id} RETURNING id`);
  return row !== undefined;
}

export async function countTasks(db: Queryable): Promise<{ open: number; done: number }> {
  const rows = await db.many<{ status: TaskStatus; count: string }>(sql`SELECT status, count(*) FROM tasks GROUP BY status`);
  const counts = { open: 0, done: 0 };
  for (const row of rows) counts[row.status] = Number(row.count);
  return counts;
}

export async function recordEvent(db: Queryable, event: TaskEvent): Promise<void> {
  await db.query(sql`INSERT INTO task_events (task_id, type) VALUES (${event.taskId}, ${event.type})`);
}
