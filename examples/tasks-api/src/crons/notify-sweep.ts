import { outboxSweeper } from '@framework/notify';
import { providers, templates } from '../lib/notify.js';

/**
 * Every 10 minutes: delivers outbox rows older than a minute that are still due (nobody dispatched them, a retry's
 * time came, a dispatcher died mid-send).
 */
export const main = outboxSweeper({ templates, providers, olderThanSeconds: 60 });
