import { outboxQueueConsumer } from '@framework/notify';
import { providers, templates } from '../lib/notify.js';

/** The notification dispatcher: delivers the outbox rows `notify.dispatch` names once their transaction committed. */
export const main = outboxQueueConsumer({ templates, providers });
