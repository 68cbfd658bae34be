import { timingSafeEqual } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { WebhookSignatureInvalid, WebhookSignatureMissing, WebhookTimestampStale } from '../errors.js';
import { checkWebhookSecret } from './webhook-secret.js';

/** The three headers of a signed message (Standard Webhooks spec). */
export interface StandardWebhookHeaders {
  readonly 'webhook-id': string;
  readonly 'webhook-timestamp': string;
  readonly 'webhook-signature': string;
}

/** Signs `payload` (the exact body sent) for message `id` at `timestamp` with the endpoint's secret. */
export function signStandardWebhook(secret: string, id: string, timestamp: Date, payload: string): StandardWebhookHeaders {
  checkWebhookSecret(secret);
  const signature = new Webhook(secret).sign(id, timestamp, payload);
  return { 'webhook-id': id, 'webhook-timestamp': String(Math.floor(timestamp.getTime() / 1000)), 'webhook-signature': signature };
}

export interface VerifyOptions {
  /**
   * How far the signed timestamp may be from now, either way.
   * @default 300
   */
  readonly toleranceSeconds?: number;
  /** @default Date.now */
  readonly now?: () => number;
}

/**
 * Checks a Standard Webhooks message: headers present (400 `WEBHOOK_SIGNATURE_MISSING`), timestamp within tolerance
 * (400 `WEBHOOK_TIMESTAMP_STALE`), one of the `v1,` signatures matching the raw body under one of the secrets (401
 * `WEBHOOK_SIGNATURE_INVALID`; several secrets: a rotation). The signature is computed by the `standardwebhooks`
 * package and compared in constant time. Header names are lower case (as the gateway gives them).
 */
export function verifyStandardWebhook(secrets: readonly string[], rawBody: string, headers: Readonly<Record<string, string | undefined>>, options: VerifyOptions = {}): void {
  const id = headers['webhook-id'];
  const timestampText = headers['webhook-timestamp'];
  const signatures = headers['webhook-signature'];
  if (!id || !timestampText || !signatures) throw new WebhookSignatureMissing('webhook-id, webhook-timestamp and webhook-signature');
  const tolerance = options.toleranceSeconds ?? 300;
  const timestamp = Number(timestampText);
  const now = Math.floor((options.now ?? Date.now)() / 1000);
  if (!Number.isInteger(timestamp)) throw new WebhookSignatureMissing('webhook-timestamp (whole seconds since the epoch)');
  if (Math.abs(now - timestamp) > tolerance) throw new WebhookTimestampStale(tolerance);
  const presented = signatures.split(' ').flatMap((s) => (s.startsWith('v1,') ? [Buffer.from(s.slice(3))] : []));
  for (const secret of secrets) {
    const expected = Buffer.from(new Webhook(secret).sign(id, new Date(timestamp * 1000), rawBody).slice(3));
    if (presented.some((p) => p.length === expected.length && timingSafeEqual(p, expected))) return;
  }
  throw new WebhookSignatureInvalid();
}
