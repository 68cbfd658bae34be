import { sql, type Queryable, type Transaction } from '@framework/data';
import type { Notifier, Queued, Recipient } from '@framework/notify';
import { runWithTenant } from '@framework/runtime';
import { BillingError } from '../errors.js';
import type { BillingEvent, BillingProvider, ProviderSubscription } from '../provider/billing-provider.js';
import { RECEIPT_TEMPLATE, type ReceiptData } from './receipt-notification.js';
import { WEBHOOK_EVENTS_TABLE } from './webhook-events-migration.js';

/** Sends a receipt for each paid invoice, through notify's outbox, in the transaction that applies the event. */
export interface ReceiptOptions {
  // The app's notifier is typed by its own templates; the receipt template is looked up by name.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  readonly notifier: Notifier<any>;
  /** Who receives the tenant's receipts (its billing contact); undefined: no receipt. */
  recipient(tx: Transaction, tenantId: string): Promise<Recipient | undefined>;
  /**
   * The template name in the app's templates (`receiptNotification` registered under it).
   * @default 'billing-receipt'
   */
  readonly template?: string;
}

export interface ApplyBillingEventOptions {
  /** Reads the subscription's current state (`getSubscription`). */
  readonly provider: BillingProvider;
  /** Writes the subscription into the tenant's snapshot (the entitlements follow the plan), in `tx`. */
  applySubscription(tx: Transaction, tenantId: string, subscription: ProviderSubscription, event: BillingEvent): Promise<void>;
  /** @default - no receipts */
  readonly receipts?: ReceiptOptions;
}

export type ApplyOutcome = 'applied' | 'duplicate' | 'ignored' | 'no-tenant';

export interface AppliedBillingEvent {
  readonly outcome: ApplyOutcome;
  /** Outbox rows written (receipts): hand them to `notifier.dispatch` after the call. */
  readonly queued: readonly Queued[];
}

/** The subscription an event is about, read back from the provider (its latest state), or the event's copy. */
async function currentSubscription(event: BillingEvent, provider: BillingProvider): Promise<ProviderSubscription | undefined> {
  const id = event.subscription?.id ?? (event.type === 'checkout.completed' ? event.subscriptionId : undefined);
  if (!id) return undefined;
  try {
    return await provider.getSubscription(id);
  } catch (error) {
    // Only a subscription the provider no longer has falls back to the event's copy; anything else is retried by
    // the provider (the route answers 500, nothing was recorded).
    if (event.subscription && error instanceof BillingError && /no such subscription/i.test(error.message)) return event.subscription;
    throw error;
  }
}

/**
 * Applies a verified provider event once: the event id is stored in the same transaction as its effect, so a
 * redelivery (the provider retries until it gets a 2xx) is answered `duplicate` and changes nothing, and a failure
 * leaves nothing half-applied for the retry. Subscription events apply the provider's current state of the
 * subscription (read back with `getSubscription`), so events arriving out of order converge to the same snapshot.
 * Runs as the event's tenant (row-level security applies).
 */
export async function applyBillingEvent(db: Queryable, event: BillingEvent, options: ApplyBillingEventOptions): Promise<AppliedBillingEvent> {
  if (event.type === 'ignored') return { outcome: 'ignored', queued: [] };
  const tenantId = event.tenantId ?? event.subscription?.tenantId ?? event.invoice?.tenantId;
  if (!tenantId) return { outcome: 'no-tenant', queued: [] };
  const subscription = event.type === 'invoice.paid' || event.type === 'invoice.payment_failed' ? undefined : await currentSubscription(event, options.provider);
  return runWithTenant({ id: tenantId }, () =>
    db.transaction(async (tx) => {
      const recorded = await tx.maybeOne(sql`
        INSERT INTO ${sql.identifier(WEBHOOK_EVENTS_TABLE)} (provider, event_id, type, provider_type, occurred_at)
        VALUES (${event.provider}, ${event.id}, ${event.type}, ${event.providerType}, ${event.occurredAt})
        ON CONFLICT (provider, event_id) DO NOTHING
        RETURNING event_id`);
      if (!recorded) return { outcome: 'duplicate' as const, queued: [] };
      if (subscription) await options.applySubscription(tx, tenantId, subscription, event);
      const queued: Queued[] = [];
      if (event.type === 'invoice.paid' && event.invoice && options.receipts) {
        const to = await options.receipts.recipient(tx, tenantId);
        if (to) {
          const invoice = event.invoice;
          const data: ReceiptData = {
            invoiceId: invoice.id,
            invoiceNumber: invoice.number ?? invoice.id,
            currency: invoice.currency,
            amountPaidCents: invoice.amountPaidCents,
            periodStart: invoice.periodStart.toISOString(),
            periodEnd: invoice.periodEnd.toISOString(),
            lines: invoice.lines.map((line) => ({ description: line.description, amountCents: line.amountCents })),
            ...(invoice.hostedUrl ? { hostedUrl: invoice.hostedUrl } : {}),
          };
          queued.push(await options.receipts.notifier.send(tx, { to, template: options.receipts.template ?? RECEIPT_TEMPLATE, data, idempotencyKey: `billing-receipt:${event.provider}:${invoice.id}` }));
        }
      }
      return { outcome: 'applied' as const, queued };
    }),
  );
}

