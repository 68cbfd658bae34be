import { sql, type Queryable } from '@framework/data';
import { BillingError } from '../errors.js';
import type { Invoice } from '../model.js';
import type { BillingProvider, ProviderInvoice } from '../provider/billing-provider.js';
import { readInvoice } from './invoice-store.js';

/**
 * How a closed period's invoice compares with the provider's invoice for the same period:
 * - `matched`: same currency and total (integer minor units); the provider's invoice id is stored on ours.
 * - `mismatch`: they differ (`code` FW_ERR_BILLING_INVOICE_MISMATCH, `difference` = theirs - ours, both line lists
 *   to compare); nothing is stored, so a later run compares again.
 * - `not_closed`: the period has no invoice of ours yet. `no_provider_invoice`: the provider has not invoiced the
 *   period yet (or the tenant has no customer there). Both: run again later.
 */
export interface InvoiceReconciliation {
  readonly status: 'matched' | 'mismatch' | 'not_closed' | 'no_provider_invoice';
  readonly tenantId: string;
  readonly periodStart: Date;
  /** Our invoice's total (minor units), once closed. */
  readonly ours?: number;
  /** The provider's invoice total (minor units), once it invoiced the period. */
  readonly theirs?: number;
  /** `theirs - ours`, when both exist. */
  readonly difference?: number;
  readonly invoiceId?: string;
  readonly providerInvoiceId?: string;
  /** Set on `mismatch`. */
  readonly code?: 'FW_ERR_BILLING_INVOICE_MISMATCH';
  /** On `mismatch`: what differs and where to look. */
  readonly message?: string;
  /** On `mismatch`: both invoices' lines (description and amount), to find the difference. */
  readonly lines?: { readonly ours: readonly { description: string; amount: number }[]; readonly theirs: readonly { description: string; amount: number }[] };
}

/** Compares our closed invoice with the provider's (pure): equal currency and total, or a coded mismatch. */
export function compareInvoices(invoice: Invoice, theirs: ProviderInvoice): InvoiceReconciliation {
  // Ours subtracts credits in the total (credit lines); the provider may apply them as a customer balance instead.
  const due = theirs.totalCents + (theirs.balanceAppliedCents ?? 0);
  const base = { tenantId: invoice.tenantId, periodStart: invoice.periodStart, ours: invoice.total, theirs: due, difference: due - invoice.total, invoiceId: invoice.id, providerInvoiceId: theirs.id };
  if (theirs.currency === invoice.currency && due === invoice.total) return { status: 'matched', ...base };
  const what = theirs.currency !== invoice.currency ? `currency ${invoice.currency} here, ${theirs.currency} at the provider` : `total ${invoice.total} here, ${due} at the provider (difference ${due - invoice.total})`;
  return {
    status: 'mismatch',
    ...base,
    code: 'FW_ERR_BILLING_INVOICE_MISMATCH',
    message: `Invoice ${invoice.number} of tenant ${invoice.tenantId} (period from ${invoice.periodStart.toISOString()}) does not reconcile with the provider's ${theirs.number ?? theirs.id}: ${what}. Compare the lines: the provider's prices must be the config's plans (the local fake takes them; on Stripe, syncStripePlans), the period's usage must have been pushed before the provider closed the period, and credits granted with the provider (grantCredit's provider option).`,
    lines: { ours: invoice.lines.map((l) => ({ description: l.description, amount: l.amount })), theirs: theirs.lines.map((l) => ({ description: l.description, amount: l.amountCents })) },
  };
}

/**
 * Reconciles the tenant's closed period starting at `periodStart` with the provider's invoice for it (the customer
 * from the tenant's subscription snapshot): `matched` stores the provider's invoice id on ours (once; a re-run finds
 * it). Run it after both sides closed the period (the example's billing-close cron, on each run, for invoices not
 * matched yet).
 */
export async function reconcileInvoice(db: Queryable, provider: Pick<BillingProvider, 'findInvoice'>, tenantId: string, periodStart: Date): Promise<InvoiceReconciliation> {
  const invoice = await readInvoice(db, tenantId, periodStart);
  if (!invoice) return { status: 'not_closed', tenantId, periodStart };
  const customer = await db.maybeOne<{ provider_customer_id: string | null }>(sql`SELECT provider_customer_id FROM fw_billing_subscriptions WHERE tenant_id = ${tenantId}`);
  const theirs = customer?.provider_customer_id ? await provider.findInvoice({ customerId: customer.provider_customer_id, periodStart }) : undefined;
  if (!theirs) return { status: 'no_provider_invoice', tenantId, periodStart, ours: invoice.total, invoiceId: invoice.id };
  const result = compareInvoices(invoice, theirs);
  if (result.status === 'matched') {
    await db.query(sql`UPDATE fw_billing_invoices SET provider_invoice_id = ${theirs.id} WHERE id = ${invoice.id} AND provider_invoice_id IS NULL`);
  }
  return result;
}

/** Throws `FW_ERR_BILLING_INVOICE_MISMATCH` (with the report's message) when a reconciliation found a difference. */
export function assertReconciled(result: InvoiceReconciliation): InvoiceReconciliation {
  if (result.status === 'mismatch') throw new BillingError('FW_ERR_BILLING_INVOICE_MISMATCH', result.message ?? 'The invoice does not reconcile with the provider\'s.');
  return result;
}
