import { sql, type Queryable } from '@framework/data';
import { BillingError } from '../errors.js';
import type { BillingProvider } from '../provider/billing-provider.js';

/** Where else a credit is recorded: the payment provider, so its invoice uses the credit as ours does. */
export interface GrantCreditOptions {
  /** The provider adapter (`creditCustomer`); without it the credit is ours only. @default - none */
  readonly provider?: Pick<BillingProvider, 'creditCustomer'>;
  /** The plans' currency (`createBilling` fills it in). @default 'usd' */
  readonly currency?: string;
}

/** A granted credit: our row's id, and the provider's id of the same credit when it was recorded there. */
export interface GrantedCredit {
  readonly id: string;
  readonly providerCreditId?: string;
}

/**
 * Grants the tenant a credit of `amount` minor units (a refund, a goodwill gesture), used by the next closes. With
 * `provider`, the credit is also recorded there for the tenant's customer (Stripe: a negative customer balance
 * transaction, idempotency key from the credit's id), inside the caller's transaction: a provider call that fails
 * rolls the credit back, so both sides have it or neither. (A commit failing after the call leaves it at the
 * provider only; the next reconcile reports that as a mismatch.)
 */
export async function grantCredit(tx: Queryable, tenantId: string, amount: number, reason: string, options: GrantCreditOptions = {}): Promise<GrantedCredit> {
  if (!Number.isSafeInteger(amount) || amount <= 0) throw new BillingError('FW_ERR_BILLING_INVALID_USAGE', `A credit must be a whole number of minor units (cents) > 0, got ${String(amount)}.`);
  if (typeof reason !== 'string' || reason.length === 0) throw new BillingError('FW_ERR_BILLING_INVALID_USAGE', 'A credit needs a reason (shown on the invoice).');
  const customerId = options.provider?.creditCustomer
    ? (await tx.maybeOne<{ provider_customer_id: string | null }>(sql`SELECT provider_customer_id FROM fw_billing_subscriptions WHERE tenant_id = ${tenantId}`))?.provider_customer_id
    : undefined;
  if (options.provider?.creditCustomer && !customerId) {
    throw new BillingError('FW_ERR_BILLING_NO_CUSTOMER', `Tenant ${tenantId} has no customer at the payment provider yet, so the credit cannot be recorded there: create the customer (subscribe the tenant) first, or grant the credit without provider (then the provider's invoice will not include it).`);
  }
  const row = await tx.one<{ id: string }>(sql`INSERT INTO fw_billing_credits (tenant_id, amount, reason) VALUES (${tenantId}, ${amount}, ${reason}) RETURNING id::text AS id`);
  if (!options.provider?.creditCustomer || !customerId) return { id: row.id };
  const credit = await options.provider.creditCustomer({ customerId, tenantId, creditId: row.id, amountCents: amount, currency: options.currency ?? 'usd', reason });
  return { id: row.id, providerCreditId: credit.id };
}

/** One credit an invoice used, and how much of it. */
export interface UsedCredit {
  readonly amount: bigint;
  readonly reason: string;
}

/**
 * Uses the tenant's open credits, oldest first, up to `due` (never past it: an invoice does not go negative). A
 * credit used in part is split: the used part is marked with the invoice, the rest stays open as a new row.
 */
export async function useCredits(tx: Queryable, tenantId: string, invoiceId: string, due: bigint): Promise<UsedCredit[]> {
  const open = await tx.many<{ id: string; amount: string; reason: string }>(sql`
    SELECT id, amount::text AS amount, reason FROM fw_billing_credits
    WHERE tenant_id = ${tenantId} AND invoice_id IS NULL ORDER BY id FOR UPDATE`);
  const used: UsedCredit[] = [];
  let left = due;
  for (const credit of open) {
    if (left <= 0n) break;
    const amount = BigInt(credit.amount);
    const take = amount < left ? amount : left;
    if (take < amount) {
      await tx.query(sql`INSERT INTO fw_billing_credits (tenant_id, amount, reason, created_at) SELECT tenant_id, ${(amount - take).toString()}::bigint, reason, created_at FROM fw_billing_credits WHERE id = ${credit.id}`);
    }
    await tx.query(sql`UPDATE fw_billing_credits SET amount = ${take.toString()}::bigint, invoice_id = ${invoiceId} WHERE id = ${credit.id}`);
    used.push({ amount: take, reason: credit.reason });
    left -= take;
  }
  return used;
}
