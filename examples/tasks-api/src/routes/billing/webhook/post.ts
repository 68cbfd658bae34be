import { sql } from '@framework/data';
import { handler } from '@framework/runtime';
import { applyBillingEvent, verifiedBillingEvent, type BillingEvent } from '@framework-pro/billing';
import { billingProvider } from '../../../lib/billing.js';
import { NOTIFY_QUEUE, notify } from '../../../lib/notify.js';

/**
 * POST /billing/webhook: the payment provider's events (Stripe, or the local fake). Public (the provider signs its
 * requests): a forged, altered or stale request is a 400/401 before anything runs. Each event is applied once, in
 * one transaction with its record; a paid invoice writes the tenant's receipt to the notification outbox.
 */
export const main = handler({
  middleware: [verifiedBillingEvent(billingProvider)],
  fn: async (event, _ctx, service) => {
    const { outcome, queued } = await applyBillingEvent(service.db, event as BillingEvent, {
      receipts: {
        notifier: notify,
        recipient: async (tx) => {
          const customer = await tx.maybeOne<{ email: string }>(sql`SELECT email FROM billing_customers`);
          return customer ? { email: customer.email } : undefined;
        },
      },
    });
    await notify.dispatch(service.queues[NOTIFY_QUEUE]!, ...queued);
    return { received: true, outcome };
  },
});
