import '@framework/data';
import { createApiKeys, createWebhooks } from '@framework/integrations';
import { security } from '../../config/security.js';

/**
 * The app's API keys: any declared scope may be granted. Importing this module registers the verifier that routes
 * with `auth: ['jwt', 'apiKey']` call. The tables come from migrations/0002_fw_integrations.sql and 0012_webhook_secrets_encrypted.sql (the package's own).
 */
export const apiKeys = createApiKeys({ allowedScopes: Object.keys(security.scopes) });

/**
 * Outgoing webhooks through the `webhooks` queue (consumer: src/queues/webhooks.ts). Short backoff: a receiver that
 * fails is retried after about 1, 2, 4, 8 s, then the message goes to the dead-letter queue.
 */
export const webhooks = createWebhooks({ queue: 'webhooks', maxAttempts: 5, backoff: { baseSeconds: 1, maxSeconds: 60 }, timeoutMs: 5000 });
