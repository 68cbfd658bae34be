import { sql, type Queryable } from '@framework/data';
import { BillingError } from '../errors.js';

/** Grants the tenant a credit of `amount` minor units (a refund, a goodwill gesture), used by the next closes. */
export async function grantCredit(tx: Queryable, tenantId: string, amount: number, reason: string): Promise<void> {
  if (!Number.isSafeInteger(amount) || amount <= 0) throw new BillingError('FW_ERR_BILLING_INVALID_USAGE', `A credit must be a whole number of minor units (cents) > 0, got ${String(amount)}.`);
  if (typeof reason !== 'string' || reason.length === 0) throw new BillingError('FW_ERR_BILLING_INVALID_USAGE', 'A credit needs a reason (shown on the invoice).');
  await tx.query(sql`INSERT INTO fw_billing_credits (tenant_id, amount, reason) VALUES (${tenantId}, ${amount}, ${reason})`);
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
