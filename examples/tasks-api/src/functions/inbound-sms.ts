import { inboundSmsHandler, SuppressionList } from '@framework/notify';
import { taskHandler } from '@framework/runtime';

/**
 * Replies to the app's SMS number (deployed: the phone number's two-way SNS topic invokes it). STOP and its synonyms
 * put the number on the suppression list, so the next "task assigned" SMS to it is not sent (its outbox row ends
 * `suppressed`); START lifts it. Locally, invoke it with the same SNS event (`POST /_dev/invoke/inbound-sms`).
 */
export const main = taskHandler(async (event, _ctx, service) => inboundSmsHandler({ suppressions: () => new SuppressionList(service.db) })(event));
