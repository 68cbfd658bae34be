import type Stripe from 'stripe';
import { BillingWebhookError } from '../../errors.js';

export const STRIPE_SIGNATURE_HEADER = 'stripe-signature';

function headerOf(headers: Readonly<Record<string, string | undefined>>): string | undefined {
  if (headers[STRIPE_SIGNATURE_HEADER] !== undefined) return headers[STRIPE_SIGNATURE_HEADER];
  const name = Object.keys(headers).find((key) => key.toLowerCase() === STRIPE_SIGNATURE_HEADER);
  return name === undefined ? undefined : headers[name];
}

/**
 * `stripe.webhooks.constructEvent` with the refusals told apart: no or unreadable header (400), a timestamp outside
 * the tolerance (400, checked first so a replayed old delivery says so), a signature that does not match (401).
 */
export function verifyStripeSignature(stripe: Stripe, rawBody: string, headers: Readonly<Record<string, string | undefined>>, secret: string, toleranceSeconds: number): Stripe.Event {
  const header = headerOf(headers);
  if (!header) throw new BillingWebhookError('BILLING_WEBHOOK_SIGNATURE_MISSING', 'The webhook has no Stripe-Signature header: send it from Stripe (or the local fake) to this endpoint');
  const timestamp = /(?:^|,)\s*t=(\d+)/.exec(header)?.[1];
  if (!timestamp || !/(?:^|,)\s*v1=[0-9a-f]+/.test(header)) throw new BillingWebhookError('BILLING_WEBHOOK_SIGNATURE_MISSING', 'The Stripe-Signature header has no t=<timestamp> and v1=<signature> pair');
  const age = Math.abs(Date.now() / 1000 - Number(timestamp));
  if (age > toleranceSeconds) throw new BillingWebhookError('BILLING_WEBHOOK_TIMESTAMP_STALE', `The webhook was signed ${Math.round(age)} s away from now, beyond the ${toleranceSeconds} s tolerance: a replay, or a far-off clock`);
  try {
    return stripe.webhooks.constructEvent(rawBody, header, secret, toleranceSeconds);
  } catch (error) {
    if (error instanceof SyntaxError) throw new BillingWebhookError('BILLING_WEBHOOK_INVALID_PAYLOAD', 'The webhook is signed but its body is not JSON');
    throw new BillingWebhookError('BILLING_WEBHOOK_SIGNATURE_INVALID', 'The webhook signature does not match its body: check the endpoint\'s signing secret (whsec_...)');
  }
}
