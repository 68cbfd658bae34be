import { randomUUID } from 'node:crypto';
import { getDatabase, sql } from '@framework/data';

/** A task of the sample API. */
export interface Task {
  readonly id: string;
  readonly title: string;
  readonly done: boolean;
  readonly createdAt: string;
}

/** What `POST /tasks` accepts. */
export interface NewTask {
  readonly title: string;
}

interface TaskRow {
  readonly id: string;
  readonly title: string;
  readonly done: boolean;
  readonly created_at: Date;
}

const toTask = (row: TaskRow): Task => ({ id: row.id, title: row.title, done: row.done, createdAt: new Date(row.created_at).toISOString() });

/** Tasks live in the `main` database (table created by migrations/0001_create_tasks.sql). */
export async function listTasks(): Promise<Task[]> {
  const rows = await getDatabase('main').many<TaskRow>(sql`SELECT id, title, done, created_at FROM tasks ORDER BY created_at, id LIMIT 100`);
  return rows.map(toTask);
}

export async function createTask(input: NewTask): Promise<Task> {
  const row = await getDatabase('main').one<TaskRow>(
    sql`INSERT INTO tasks (id, title) VALUES (${randomUUID()}, ${input.title}) RETURNING id, title, done, created_at`,
  );
  return toTask(row);
}

/** Checks a request body: returns the problem, or undefined when it is a valid new task. */
export function checkNewTask(body: unknown): string | undefined {
  if (typeof body !== 'object' || body === null) return 'expected a JSON object { "title": "..." }';
  const title = (body as { title?: unknown }).title;
  if (typeof title !== 'string' || title.trim() === '') return '"title" must be a non-empty string';
  if (title.length > 200) return '"title" must be at most 200 characters';
  return undefined;
}
