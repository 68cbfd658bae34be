import { taskHandler, type SQSEvent } from '@framework/runtime';
import { webhooks } from '../lib/integrations.js';

/**
 * Consumer of `webhooks`: one signed delivery attempt per message; a receiver without a 2xx answer gets the message
 * again later (exponential backoff, same `webhook-id`), until the last attempt fails into the dead-letter queue.
 */
export const main = taskHandler<SQSEvent>(async (event) => webhooks.processDeliveries(event));
