import { sql, type Queryable } from '@framework/data';
import { BillingError } from '../errors.js';
import { SUBSCRIPTION_STATUSES, type BillingPlans, type SubscriptionChange } from '../model.js';

export interface ApplySubscriptionChangeOptions {
  /** When given, a change naming a plan it does not declare is refused. @default - plan ids are not checked */
  readonly plans?: BillingPlans;
}

/** What `applySubscriptionChange` did. */
export interface AppliedSubscriptionChange {
  /** The snapshot now holds this change (its version was above the stored one, or the tenant had none). */
  readonly applied: boolean;
  /** The change was new to the history (false: this version was recorded before, a replay). */
  readonly recorded: boolean;
}

const MAX_SEATS = 1_000_000;

function refuse(message: string): never {
  throw new BillingError('FW_ERR_BILLING_INVALID_CHANGE', message);
}

function validate(change: SubscriptionChange, options: ApplySubscriptionChangeOptions): void {
  if (typeof change.tenantId !== 'string' || change.tenantId.length === 0) refuse('The change has no tenantId: name the tenant whose subscription changed.');
  if (typeof change.planId !== 'string' || change.planId.length === 0) refuse('The change has no planId.');
  if (options.plans && !Object.hasOwn(options.plans.plans, change.planId)) {
    refuse(`The change names plan ${JSON.stringify(change.planId)}, which the app does not declare (plans: ${Object.keys(options.plans.plans).join(', ')}): map the provider's price to a declared plan.`);
  }
  if (!(SUBSCRIPTION_STATUSES as readonly string[]).includes(change.status)) refuse(`Status ${JSON.stringify(change.status)} is not one of ${SUBSCRIPTION_STATUSES.join(', ')}.`);
  if (!Number.isSafeInteger(change.seats) || change.seats < 0 || change.seats > MAX_SEATS) refuse(`Seats must be a whole number from 0 to ${MAX_SEATS}, got ${String(change.seats)}.`);
  if (!Number.isSafeInteger(change.version) || change.version < 0) refuse(`Version must be a whole number >= 0 (the provider's event time in milliseconds, say), got ${String(change.version)}.`);
  for (const [name, value] of [['periodStart', change.periodStart], ['periodEnd', change.periodEnd], ['effectiveAt', change.effectiveAt ?? new Date()]] as const) {
    if (!(value instanceof Date) || Number.isNaN(value.getTime())) refuse(`${name} must be a valid Date.`);
  }
  if (change.periodEnd.getTime() <= change.periodStart.getTime()) refuse('periodEnd must be after periodStart.');
  if (change.trialEnd !== null && (!(change.trialEnd instanceof Date) || Number.isNaN(change.trialEnd.getTime()))) refuse('trialEnd must be a valid Date or null.');
}

/**
 * Writes a subscription change in the caller's transaction (a webhook's, or the app's own plan change): the change
 * joins the tenant's history (what proration reads) and replaces the snapshot (what entitlements read) only when
 * its `version` is above the stored one. Events delivered out of order, or twice, therefore converge on the state of
 * the highest version, and the history holds every version once whatever the order.
 */
export async function applySubscriptionChange(tx: Queryable, change: SubscriptionChange, options: ApplySubscriptionChangeOptions = {}): Promise<AppliedSubscriptionChange> {
  validate(change, options);
  const effectiveAt = change.effectiveAt ?? new Date();
  const recorded = await tx.query(sql`
    INSERT INTO fw_billing_subscription_changes (tenant_id, version, plan_id, status, seats, effective_at)
    VALUES (${change.tenantId}, ${change.version}, ${change.planId}, ${change.status}, ${change.seats}, ${effectiveAt})
    ON CONFLICT (tenant_id, version) DO NOTHING`);
  const applied = await tx.query(sql`
    INSERT INTO fw_billing_subscriptions AS s (tenant_id, plan_id, status, seats, period_start, period_end, trial_end,
      provider_customer_id, provider_subscription_id, version, updated_at)
    VALUES (${change.tenantId}, ${change.planId}, ${change.status}, ${change.seats}, ${change.periodStart}, ${change.periodEnd},
      ${change.trialEnd}, ${change.providerCustomerId}, ${change.providerSubscriptionId}, ${change.version}, now())
    ON CONFLICT (tenant_id) DO UPDATE SET plan_id = excluded.plan_id, status = excluded.status, seats = excluded.seats,
      period_start = excluded.period_start, period_end = excluded.period_end, trial_end = excluded.trial_end,
      provider_customer_id = excluded.provider_customer_id, provider_subscription_id = excluded.provider_subscription_id,
      version = excluded.version, updated_at = now()
    WHERE s.version < excluded.version`);
  return { applied: applied.rowCount > 0, recorded: recorded.rowCount > 0 };
}
