import { createHmac, timingSafeEqual } from 'node:crypto';
import { WebhookSignatureInvalid, WebhookSignatureMissing, WebhookTimestampStale } from '../errors.js';
import type { VerifyOptions } from './standard-webhook-signature.js';

/** The header Stripe (and many who copied it) sign with: `t=<unix seconds>,v1=<hex HMAC-SHA-256 of "t.body">`. */
export const STRIPE_SIGNATURE_HEADER = 'stripe-signature';

/** The header value for `payload` signed at `timestamp` (what a sender computes; tests use it too). */
export function signStripeStyle(secret: string, timestamp: Date, payload: string): string {
  const t = Math.floor(timestamp.getTime() / 1000);
  return `t=${t},v1=${createHmac('sha256', secret).update(`${t}.${payload}`).digest('hex')}`;
}

/**
 * Checks a Stripe-style signature header (`t=...,v1=...`, several `v1` allowed): 400 `WEBHOOK_SIGNATURE_MISSING`
 * without a `t` or a `v1`, 400 `WEBHOOK_TIMESTAMP_STALE` outside the tolerance, 401 `WEBHOOK_SIGNATURE_INVALID` when no
 * `v1` matches under any of the secrets (compared in constant time).
 */
export function verifyStripeStyle(secrets: readonly string[], rawBody: string, header: string | undefined, options: VerifyOptions = {}): void {
  let timestamp: number | undefined;
  const signatures: Buffer[] = [];
  for (const part of (header ?? '').split(',')) {
    const eq = part.indexOf('=');
    const [name, value] = [part.slice(0, eq).trim(), part.slice(eq + 1).trim()];
    if (name === 't' && /^\d+$/.test(value)) timestamp = Number(value);
    else if (name === 'v1' && /^[0-9a-f]{64}$/i.test(value)) signatures.push(Buffer.from(value, 'hex'));
  }
  if (timestamp === undefined || signatures.length === 0) throw new WebhookSignatureMissing('Stripe-Signature (t=<timestamp>,v1=<signature>)');
  const tolerance = options.toleranceSeconds ?? 300;
  if (Math.abs(Math.floor((options.now ?? Date.now)() / 1000) - timestamp) > tolerance) throw new WebhookTimestampStale(tolerance);
  for (const secret of secrets) {
    const expected = createHmac('sha256', secret).update(`${timestamp}.${rawBody}`).digest();
    if (signatures.some((s) => timingSafeEqual(s, expected))) return;
  }
  throw new WebhookSignatureInvalid();
}
