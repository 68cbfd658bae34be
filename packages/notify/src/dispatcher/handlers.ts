import { getDatabase, type Database } from '@framework/data';
import { processRecords, taskHandler, type SQSEvent } from '@framework/runtime';
import type { DispatchMessage } from '../outbox/notifier.js';
import type { NotificationProvider } from '../providers/provider.js';
import type { TemplateRegistry } from '../templates/define-notification.js';
import { Dispatcher, type DispatcherOptions } from './dispatcher.js';

/** What the app's dispatcher units share: the same options in the queue consumer and the sweeper cron. */
export interface DispatcherUnitOptions extends Omit<DispatcherOptions, 'db' | 'providers'> {
  readonly templates: TemplateRegistry;
  /** The providers, built once per execution environment (on first use, so a cold start only pays for the ones used). */
  readonly providers: () => readonly NotificationProvider[];
  /** The database intent holding the outbox. @default - the app's only database */
  readonly database?: string;
}

function dispatcherOf(options: DispatcherUnitOptions): () => Dispatcher {
  let dispatcher: Dispatcher | undefined;
  return () => {
    if (!dispatcher) {
      const db: Database = getDatabase(options.database);
      dispatcher = new Dispatcher({ ...options, db, providers: options.providers() });
    }
    return dispatcher;
  };
}

/**
 * The dispatcher's queue consumer (`src/queues/<id>.ts`: `export const main = outboxQueueConsumer({ ... })`): each
 * message names outbox rows `notify.dispatch` sent after their commit; they are delivered at once. A message whose
 * rows are not due (already sent, retry later) does nothing: the sweeper owns retries.
 */
export function outboxQueueConsumer(options: DispatcherUnitOptions) {
  const dispatcher = dispatcherOf(options);
  return taskHandler<SQSEvent>(async (event) =>
    processRecords<Partial<DispatchMessage>>(event, async (message) => {
      const ids = Array.isArray(message?.outboxIds) ? message.outboxIds.filter((id): id is string => typeof id === 'string' && /^[0-9a-f-]{36}$/i.test(id)) : [];
      return dispatcher().dispatchIds(ids);
    }),
  );
}

/**
 * The sweeper cron (`src/crons/<id>.ts`: `export const main = outboxSweeper({ ... })`): delivers rows older than
 * `olderThanSeconds` that are still due (never dispatched, retries whose time came, expired claims).
 */
export function outboxSweeper(options: DispatcherUnitOptions & { readonly olderThanSeconds?: number; readonly maxRows?: number }) {
  const dispatcher = dispatcherOf(options);
  return taskHandler(async () => dispatcher().sweep({ olderThanSeconds: options.olderThanSeconds ?? 30, ...(options.maxRows !== undefined ? { maxRows: options.maxRows } : {}) }));
}
