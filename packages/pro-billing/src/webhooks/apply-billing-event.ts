import { sql, type Queryable, type Transaction } from '@framework/data';
import type { Notifier, Queued, Recipient } from '@framework/notify';
import { runWithTenant } from '@framework/runtime';
import { BillingError } from '../errors.js';
import type { BillingPlans, SubscriptionChange } from '../model.js';
import type { BillingEvent, ProviderSubscription } from '../provider/billing-provider.js';
import { BILLING_TABLES } from '../schema/index.js';
import { applySubscriptionChange } from '../subscriptions/index.js';
import { RECEIPT_TEMPLATE, type ReceiptData } from './receipt-notification.js';

/** Sends a receipt for each paid invoice, through notify's outbox, in the transaction that applies the event. */
export interface ReceiptOptions {
  // The app's notifier is typed by its own templates; the receipt template is found by name.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  readonly notifier: Notifier<any>;
  /** Who receives the tenant's receipts (its billing contact); undefined: no receipt. */
  recipient(tx: Transaction, tenantId: string): Promise<Recipient | undefined>;
  /**
   * The template's name in the app's templates (`receiptNotification` registered under it).
   * @default 'billing-receipt'
   */
  readonly template?: string;
}

export interface ApplyBillingEventOptions {
  /**
   * The app's plans: a subscription whose price maps to no declared plan is refused (the provider retries, the log
   * says which).
   * @default - plan ids are not checked
   */
  readonly plans?: BillingPlans;
  /** @default - no receipts */
  readonly receipts?: ReceiptOptions;
}

/**
 * `applied`: recorded and applied now. `duplicate`: this event id was applied before (a redelivery). `ignored`: a
 * type the package does not apply. `no-tenant`: the provider's object carries no tenant (created outside the app).
 */
export type ApplyOutcome = 'applied' | 'duplicate' | 'ignored' | 'no-tenant';

export interface AppliedBillingEvent {
  readonly outcome: ApplyOutcome;
  /** Outbox rows written (receipts): hand them to `notifier.dispatch` after the call. */
  readonly queued: readonly Queued[];
}

/** The provider's subscription as a snapshot change, ordered by the event's time (milliseconds). */
export function subscriptionChangeOf(tenantId: string, subscription: ProviderSubscription, event: BillingEvent): SubscriptionChange {
  if (!subscription.plan) throw new BillingError('FW_ERR_BILLING_UNKNOWN_PLAN', `Subscription ${subscription.id} of tenant ${tenantId} (event ${event.id}) has a price the adapter maps to no plan: add it to the adapter's prices`);
  return {
    tenantId,
    planId: subscription.plan,
    status: event.type === 'subscription.deleted' ? 'canceled' : subscription.status,
    seats: subscription.seats,
    periodStart: subscription.currentPeriodStart,
    periodEnd: subscription.currentPeriodEnd,
    trialEnd: subscription.status === 'trialing' ? subscription.currentPeriodEnd : null,
    providerCustomerId: subscription.customerId,
    providerSubscriptionId: subscription.id,
    version: event.occurredAt.getTime(),
    effectiveAt: event.occurredAt,
  };
}

function receiptData(event: BillingEvent): ReceiptData {
  const invoice = event.invoice!;
  return {
    invoiceId: invoice.id,
    invoiceNumber: invoice.number ?? invoice.id,
    currency: invoice.currency,
    amountPaidCents: invoice.amountPaidCents,
    periodStart: invoice.periodStart.toISOString(),
    periodEnd: invoice.periodEnd.toISOString(),
    lines: invoice.lines.map((line) => ({ description: line.description, amountCents: line.amountCents })),
    ...(invoice.hostedUrl ? { hostedUrl: invoice.hostedUrl } : {}),
  };
}

/**
 * Applies a verified provider event once. The event id is recorded in the same transaction as its effect, so a
 * redelivery (providers retry until they get a 2xx, and can resend) is `duplicate` and changes nothing, and a
 * failure leaves nothing half-applied for the retry. A subscription event writes the subscription it carries with
 * the event's time as version (`applySubscriptionChange`): events arriving out of order converge on the latest.
 * A paid invoice writes a receipt to notify's outbox. Runs as the event's tenant (row-level security applies).
 */
export async function applyBillingEvent(db: Queryable, event: BillingEvent, options: ApplyBillingEventOptions = {}): Promise<AppliedBillingEvent> {
  if (event.type === 'ignored') return { outcome: 'ignored', queued: [] };
  const tenantId = event.tenantId ?? event.subscription?.tenantId ?? event.invoice?.tenantId;
  if (!tenantId) return { outcome: 'no-tenant', queued: [] };
  const change = event.subscription ? subscriptionChangeOf(tenantId, event.subscription, event) : undefined;
  return runWithTenant({ id: tenantId }, () =>
    db.transaction(async (tx) => {
      const recorded = await tx.maybeOne(sql`
        INSERT INTO ${sql.identifier(BILLING_TABLES.providerEvents)} (provider, event_id, type, tenant, applied_at)
        VALUES (${event.provider}, ${event.id}, ${event.providerType}, ${tenantId}, now())
        ON CONFLICT (provider, event_id) DO NOTHING
        RETURNING event_id`);
      if (!recorded) return { outcome: 'duplicate' as const, queued: [] };
      if (change) await applySubscriptionChange(tx, change, options.plans ? { plans: options.plans } : {});
      const queued: Queued[] = [];
      if (event.type === 'invoice.paid' && event.invoice && options.receipts) {
        const to = await options.receipts.recipient(tx, tenantId);
        if (to) {
          const template = options.receipts.template ?? RECEIPT_TEMPLATE;
          queued.push(await options.receipts.notifier.send(tx, { to, template, data: receiptData(event), idempotencyKey: `billing-receipt:${event.provider}:${event.invoice.id}` }));
        }
      }
      return { outcome: 'applied' as const, queued };
    }),
  );
}
