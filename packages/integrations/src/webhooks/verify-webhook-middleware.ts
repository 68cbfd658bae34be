import type { HandlerContext, Middleware, MiddlewareRequest } from '@framework/runtime';
import { IntegrationsError } from '../errors.js';
import { verifyStandardWebhook } from './standard-webhook-signature.js';
import { STRIPE_SIGNATURE_HEADER, verifyStripeStyle } from './stripe-style-signature.js';

export interface VerifyWebhookOptions {
  /** `standard` (Standard Webhooks: `webhook-id`/`-timestamp`/`-signature`) or `stripe` (`Stripe-Signature: t=,v1=`). */
  readonly scheme: 'standard' | 'stripe';
  /**
   * The shared secret, or several during a rotation; a function is read per request (from `service.env`, a secret
   * store...).
   */
  readonly secret: string | readonly string[] | (() => string | readonly string[] | Promise<string | readonly string[]>);
  /**
   * How far the signed timestamp may be from now.
   * @default 300
   */
  readonly toleranceSeconds?: number;
}

/** The body exactly as it arrived: signatures are over these bytes, never over re-serialized JSON. */
function rawBodyOf(request: MiddlewareRequest<HandlerContext>): string {
  const { body, isBase64Encoded } = request.event;
  if (body === undefined || body === null) return '';
  return isBase64Encoded ? Buffer.from(body, 'base64').toString('utf8') : body;
}

/**
 * Middleware for a route that receives webhooks: refuses a forged, altered or stale request before the function
 * runs (400/401 with a code, see the README), over the raw body.
 */
export function verifyWebhook(options: VerifyWebhookOptions): Middleware<HandlerContext> {
  if (options.scheme !== 'standard' && options.scheme !== 'stripe') throw new IntegrationsError('FW_ERR_WEBHOOK_OPTIONS', `verifyWebhook: scheme is 'standard' or 'stripe', not ${JSON.stringify(options.scheme)}`);
  if (options.toleranceSeconds !== undefined && !(options.toleranceSeconds > 0)) throw new IntegrationsError('FW_ERR_WEBHOOK_OPTIONS', 'verifyWebhook: toleranceSeconds must be above 0');
  const secrets = async (): Promise<readonly string[]> => {
    const value = typeof options.secret === 'function' ? await options.secret() : options.secret;
    const list = typeof value === 'string' ? [value] : value;
    if (list.length === 0 || list.some((s) => !s)) throw new IntegrationsError('FW_ERR_WEBHOOK_OPTIONS', 'verifyWebhook: the secret is empty; set the shared secret the sender signs with');
    return list;
  };
  const verifyOptions = options.toleranceSeconds !== undefined ? { toleranceSeconds: options.toleranceSeconds } : {};
  return {
    name: 'verify-webhook',
    async before(request) {
      const raw = rawBodyOf(request);
      const headers = request.ctx.headers;
      if (options.scheme === 'standard') verifyStandardWebhook(await secrets(), raw, headers, verifyOptions);
      else verifyStripeStyle(await secrets(), raw, headers[STRIPE_SIGNATURE_HEADER], verifyOptions);
    },
  };
}
