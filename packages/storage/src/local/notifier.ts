import type { UploadNotification } from '@framework/core';
import { DEV_PATHS, devQueueMessagesPath } from '@framework/core/names';
import type { S3Event } from '../events/storage-event.js';

/** Delivers "an object arrived" to a notification target (a queue or a function of the app). */
export type UploadNotifier = (target: UploadNotification, event: S3Event) => Promise<void>;

/**
 * Delivers through the dev server's own endpoints, as S3 delivers to SQS or Lambda: a queue gets a message whose body
 * is the event's JSON (`POST /_dev/queues/<id>/messages`), a function is invoked asynchronously with the event
 * (`POST /_dev/invoke/<id>`, `X-Amz-Invocation-Type: Event`).
 */
export function devServerNotifier(devEndpoint: string | (() => string)): UploadNotifier {
  const base = () => (typeof devEndpoint === 'string' ? devEndpoint : devEndpoint()).replace(/\/+$/, '');
  return async (target, event) => {
    const [url, init] =
      target.queue !== undefined
        ? [`${base()}${devQueueMessagesPath(target.queue)}`, { body: JSON.stringify({ body: JSON.stringify(event) }), headers: { 'content-type': 'application/json' } }]
        : [`${base()}${DEV_PATHS.invoke}/${target.function ?? ''}`, { body: JSON.stringify(event), headers: { 'content-type': 'application/json', 'x-amz-invocation-type': 'Event' } }];
    const res = await fetch(url, { method: 'POST', ...init });
    if (!res.ok) throw new Error(`${url} answered ${res.status}: ${(await res.text()).slice(0, 200)}`);
  };
}
