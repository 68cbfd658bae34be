import { randomBytes } from 'node:crypto';
import { IntegrationsError } from '../errors.js';

/** A new endpoint secret in the Standard Webhooks form: `whsec_` and 24 random bytes, base64. */
export function generateWebhookSecret(): string {
  return `whsec_${randomBytes(24).toString('base64')}`;
}

/** Refuses a secret the `standardwebhooks` package could not use (not `whsec_<base64>`, or empty). */
export function checkWebhookSecret(secret: string): void {
  const body = secret.startsWith('whsec_') ? secret.slice('whsec_'.length) : secret;
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(body) || Buffer.from(body, 'base64').length === 0) {
    throw new IntegrationsError('FW_ERR_WEBHOOK_OPTIONS', 'A Standard Webhooks secret is `whsec_` followed by base64 (generateWebhookSecret() makes one)');
  }
}
