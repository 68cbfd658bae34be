import { defineApp } from '@framework/core';
import { base } from './config/base.js';
import { dev } from './config/dev.js';
import { prod } from './config/prod.js';
import { security } from './config/security.js';

export default defineApp({
  base,
  security,
  envs: { dev, prod },
  routesDir: 'src/routes',
  // The app's plans, cheapest first (the upgrade path a 402 names): declared here only. Functions receive them checked
  // as data (FW_BILLING_PLANS: src/lib/billing.ts's createBilling() reads them), the local payment provider fake
  // charges them. Free: two members, 1000 API calls a month. Pro: billed per member (12.00 a seat), ten members, API
  // calls past 1000 at a tenth of a cent. Prices in cents.
  billing: {
    plans: {
      free: { name: 'Free', currency: 'usd', features: { seats: 2, api_calls: { included: 1000 } } },
      pro: {
        name: 'Pro',
        currency: 'usd',
        prices: [{ kind: 'per_seat', unitAmount: 1200 }],
        features: { seats: 10, api_calls: { included: 1000, overage: '0.1' } },
      },
    },
    defaultPlan: 'free',
    // Late usage (a retried request's track) still counts in its period for an hour after the period ends.
    graceSeconds: 3600,
  },
  infrastructure: {
    auth: {},
    databases: [{ id: 'main' }],
    queues: [
      // Short visibility timeout and two receives: a poison message reaches the dead-letter queue in seconds.
      { id: 'task-events', batchSize: 5, timeout: 5, visibilityTimeout: 5, maxReceiveCount: 2 },
      // Outgoing webhooks: each message is one delivery attempt; retries are new messages with a delay (see
      // src/lib/integrations.ts), so a message that fails once more after its last attempt is dead-lettered at once.
      { id: 'webhooks', batchSize: 5, timeout: 10, visibilityTimeout: 15, maxReceiveCount: 1 },
      // The notification dispatcher (@framework/notify): fed after each commit that wrote outbox rows.
      { id: 'notify-outbox', batchSize: 10, timeout: 30, visibilityTimeout: 60, maxReceiveCount: 5 },
      // Attachments into the collection POST /ask searches: the bucket's upload notifications (extract, chunk, embed).
      { id: 'ai-ingest', batchSize: 5, timeout: 60, visibilityTimeout: 120, maxReceiveCount: 3 },
    ],
    schedules: [
      { id: 'daily-summary', schedule: { cron: '0 7 * * ? *' }, description: 'Logs the open-task summary every day at 07:00 UTC' },
      { id: 'notify-sweep', schedule: { rate: '10 minutes' }, description: 'Delivers notifications nobody dispatched, and retries' },
      { id: 'billing-close', schedule: { cron: '0 2 * * ? *' }, description: "Closes each tenant's ended billing period into an invoice and sends its usage to the payment provider" },
    ],
    // The cloud side of the notifications: the stack creates the SES identity, configuration set and delivery-events
    // topic, and grants the send permissions to notify-outbox's consumer and the notify-sweep cron only.
    notify: { queue: 'notify-outbox', sweeper: 'notify-sweep', emailDomain: 'mail.tasks.example.com' },
    functions: [
      { id: 'task-summary', timeout: 10, description: 'Counts tasks by status' },
      { id: 'inbound-sms', timeout: 10, description: 'Replies to the SMS number: STOP / START change its suppression' },
    ],
    // Files attached to tasks: uploaded straight from the client with presigned forms (5 MiB, images, PDF, text).
    // Each upload is announced to `ai-ingest` (S3 event notifications deployed; fw dev's storage engine sends the same).
    storage: [{ id: 'attachments', maxUploadBytes: 5 * 1024 * 1024, allowedContentTypes: ['image/*', 'application/pdf', 'text/plain'], notifications: [{ queue: 'ai-ingest' }] }],
  },
});
