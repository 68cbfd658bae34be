import type { HandlerContext, Middleware, MiddlewareRequest } from '@framework/runtime';
import type { BillingProvider } from '../provider/billing-provider.js';

/** The body exactly as it arrived: the signature is over these bytes, never over re-serialized JSON. */
function rawBodyOf(request: MiddlewareRequest<HandlerContext>): string {
  const { body, isBase64Encoded } = request.event;
  if (body === undefined || body === null) return '';
  return isBase64Encoded ? Buffer.from(body, 'base64').toString('utf8') : body;
}

/**
 * Middleware for the provider's webhook route: verifies the raw body with the provider (signature, timestamp
 * tolerance) and hands the function the translated `BillingEvent` as its body. A forged, altered, stale or unsigned
 * request is answered 400/401 with a `BILLING_WEBHOOK_*` code before the function runs (never a 500).
 */
export function verifiedBillingEvent(provider: BillingProvider | (() => BillingProvider)): Middleware<HandlerContext> {
  const resolve = typeof provider === 'function' ? provider : () => provider;
  return {
    name: 'billing-webhook',
    async before(request) {
      request.body = await resolve().parseWebhook(rawBodyOf(request), request.ctx.headers);
    },
  };
}
