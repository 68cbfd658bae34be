import type { Logger, Service } from '@framework/runtime';
import type { Task } from './tasks.js';

/** What a connection subscribed to its owner's tasks receives. */
export interface TaskUpdate {
  readonly type: 'task.created';
  readonly task: Task;
}

/** The topic of one owner's tasks: each user sees only their own tasks, live updates included. */
export const taskTopic = (owner: string): string => `tasks:${owner}`;

/**
 * Sends a task update to every connection of its owner (src/ws/$connect.ts subscribes them). Live updates are a
 * convenience: a failure is logged, never fails the request that changed the task.
 */
export async function publishTaskUpdate(service: Service, logger: Logger, owner: string, update: TaskUpdate): Promise<void> {
  try {
    await service.ws.publish(taskTopic(owner), update);
  } catch (error) {
    logger.warn('Could not publish the task update', { type: update.type, taskId: update.task.id, error });
  }
}
