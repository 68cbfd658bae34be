import { sql, type Queryable } from '@framework/data';
import type { Invoice, InvoiceLine, InvoiceLineKind, InvoiceStatus } from '../model.js';

interface InvoiceRow {
  readonly id: string;
  readonly tenant_id: string;
  readonly number: string;
  readonly period_start: Date;
  readonly period_end: Date;
  readonly currency: string;
  readonly plan_id: string;
  readonly subtotal: string;
  readonly credits: string;
  readonly total: string;
  readonly status: InvoiceStatus;
  readonly provider_invoice_id: string | null;
  readonly created_at: Date;
}

interface LineRow {
  readonly kind: InvoiceLineKind;
  readonly description: string;
  readonly quantity: string;
  readonly unit_amount: string | null;
  readonly amount: string;
  readonly plan_id: string | null;
  readonly meter: string | null;
  readonly period_start: Date;
  readonly period_end: Date;
  readonly note: string | null;
}

/** The tenant's invoice for the period starting at `periodStart`, with its lines; `undefined` when not closed yet. */
export async function readInvoice(db: Queryable, tenantId: string, periodStart: Date): Promise<Invoice | undefined> {
  const row = await db.maybeOne<InvoiceRow>(sql`SELECT * FROM fw_billing_invoices WHERE tenant_id = ${tenantId} AND period_start = ${periodStart}`);
  if (!row) return undefined;
  const lines = await db.many<LineRow>(sql`SELECT * FROM fw_billing_invoice_lines WHERE invoice_id = ${row.id} ORDER BY position`);
  return {
    id: row.id,
    tenantId: row.tenant_id,
    number: row.number,
    periodStart: row.period_start,
    periodEnd: row.period_end,
    currency: row.currency,
    planId: row.plan_id,
    subtotal: Number(row.subtotal),
    credits: Number(row.credits),
    total: Number(row.total),
    status: row.status,
    providerInvoiceId: row.provider_invoice_id,
    createdAt: row.created_at,
    lines: lines.map(
      (l): InvoiceLine => ({
        kind: l.kind,
        description: l.description,
        quantity: Number(l.quantity),
        unitAmount: l.unit_amount,
        amount: Number(l.amount),
        planId: l.plan_id,
        meter: l.meter,
        periodStart: l.period_start,
        periodEnd: l.period_end,
        note: l.note,
      }),
    ),
  };
}
