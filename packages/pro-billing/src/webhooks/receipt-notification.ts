import { defineNotification, escapeHtml } from '@framework/notify';

/** What a receipt shows: the provider's invoice, paid. */
export interface ReceiptData {
  readonly invoiceId: string;
  readonly invoiceNumber: string;
  readonly currency: string;
  readonly amountPaidCents: number;
  readonly periodStart: string;
  readonly periodEnd: string;
  readonly lines: readonly { readonly description: string; readonly amountCents: number }[];
  readonly hostedUrl?: string;
}

/** `1234` cents in `usd` as `USD 12.34`: integer arithmetic, no float rounding. */
export function formatCents(cents: number, currency: string): string {
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  return `${currency.toUpperCase()} ${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

/**
 * The receipt sent when the provider reports an invoice paid (`invoice.paid`). Register it in the app's templates
 * under `RECEIPT_TEMPLATE` (`billing-receipt`), or pass your own template of the same data.
 */
export const receiptNotification = defineNotification<ReceiptData>({
  email: {
    subject: (d) => `Receipt ${d.invoiceNumber}: ${formatCents(d.amountPaidCents, d.currency)} paid`,
    mjml: (d) => `<mjml><mj-body><mj-section><mj-column>
<mj-text font-size="18px" font-weight="bold">Receipt ${escapeHtml(d.invoiceNumber)}</mj-text>
<mj-text>Period ${escapeHtml(d.periodStart.slice(0, 10))} to ${escapeHtml(d.periodEnd.slice(0, 10))}</mj-text>
<mj-table>${d.lines.map((line) => `<tr><td>${escapeHtml(line.description)}</td><td align="right">${escapeHtml(formatCents(line.amountCents, d.currency))}</td></tr>`).join('')}
<tr><td><b>Paid</b></td><td align="right"><b>${escapeHtml(formatCents(d.amountPaidCents, d.currency))}</b></td></tr></mj-table>
${d.hostedUrl ? `<mj-button href="${escapeHtml(d.hostedUrl)}">View the invoice</mj-button>` : ''}
</mj-column></mj-section></mj-body></mjml>`,
    text: (d) =>
      [`Receipt ${d.invoiceNumber}`, `Period ${d.periodStart.slice(0, 10)} to ${d.periodEnd.slice(0, 10)}`, ...d.lines.map((line) => `${line.description}: ${formatCents(line.amountCents, d.currency)}`), `Paid: ${formatCents(d.amountPaidCents, d.currency)}`, ...(d.hostedUrl ? [d.hostedUrl] : [])].join('\n'),
  },
});

export const RECEIPT_TEMPLATE = 'billing-receipt';
