import { randomUUID } from 'node:crypto';

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

/**
 * Where tasks are kept: this template keeps them in the function's memory, to show routes, scopes and tests without
 * any infrastructure. Each route is its own function (on `fw dev` as deployed), so `GET /tasks` does not see what
 * `POST /tasks` stored: for tasks that last, start from the "API + Database" template (PostgreSQL) or add a
 * database in `.projenrc.ts`.
 */
const tasks = new Map<string, Task>();

export async function listTasks(): Promise<Task[]> {
  return [...tasks.values()].sort((a, b) => a.createdAt.localeCompare(b.createdAt));
}

export async function createTask(input: NewTask): Promise<Task> {
  const task: Task = { id: randomUUID(), title: input.title, done: false, createdAt: new Date().toISOString() };
  tasks.set(task.id, task);
  return task;
}

/** Checks a request body: returns the problem, or undefined when it is a valid new task. */
export function checkNewTask(body: unknown): string | undefined {
  if (typeof body !== 'object' || body === null) return 'expected a JSON object { "title": "..." }';
  const title = (body as { title?: unknown }).title;
  if (typeof title !== 'string' || title.trim() === '') return '"title" must be a non-empty string';
  if (title.length > 200) return '"title" must be at most 200 characters';
  return undefined;
}
