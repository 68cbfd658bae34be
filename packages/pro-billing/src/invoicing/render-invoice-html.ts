import type { Invoice, MinorUnits } from '../model.js';

/** What the HTML invoice shows besides the invoice itself. */
export interface RenderInvoiceOptions {
  /** The seller's name at the top. @default - none */
  readonly seller?: string;
  /** The customer's name (the tenant's display name). @default - the tenant id */
  readonly customer?: string;
}

const ESCAPES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Text made inert in HTML (element content and quoted attributes). */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c]!);
}

/**
 * Minor units as a decimal amount with the currency code (`12.34 USD`, `1234 JPY`), by integer arithmetic: the
 * currency's decimals come from `Intl` (2 for USD, 0 for JPY, 3 for KWD), the digits from the integer itself.
 */
export function formatMoney(amount: MinorUnits, currency: string): string {
  const code = currency.toUpperCase();
  let decimals = 2;
  try {
    decimals = new Intl.NumberFormat('en', { style: 'currency', currency: code }).resolvedOptions().maximumFractionDigits ?? 2;
  } catch {
    // An unknown code: two decimals, the common case.
  }
  const negative = amount < 0;
  const digits = String(Math.abs(amount)).padStart(decimals + 1, '0');
  const whole = digits.slice(0, digits.length - decimals);
  const fraction = decimals > 0 ? `.${digits.slice(-decimals)}` : '';
  return `${negative ? '-' : ''}${whole}${fraction} ${code}`;
}

const day = (d: Date) => d.toISOString().slice(0, 10);

/**
 * The invoice as one self-contained HTML page (inline styles, no script, no external resource), every value from the
 * invoice escaped: a plan or tenant name cannot inject markup. Print it to PDF from a browser if a PDF is needed.
 */
export function renderInvoiceHtml(invoice: Invoice, options: RenderInvoiceOptions = {}): string {
  const money = (amount: number) => escapeHtml(formatMoney(amount, invoice.currency));
  const rows = invoice.lines
    .map(
      (line) => `<tr><td>${escapeHtml(line.description)}${line.note ? `<div class="note">${escapeHtml(line.note)}</div>` : ''}</td>` +
        `<td class="n">${line.quantity}</td><td class="n">${line.unitAmount === null ? '' : escapeHtml(line.unitAmount)}</td><td class="n">${money(line.amount)}</td></tr>`,
    )
    .join('\n');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Invoice ${escapeHtml(invoice.number)}</title>
<style>body{font-family:system-ui,sans-serif;margin:2rem;color:#222}table{border-collapse:collapse;width:100%}td,th{padding:.4rem;border-bottom:1px solid #ddd;text-align:left}.n{text-align:right}.note{font-size:.8em;color:#666}tfoot td{font-weight:bold}</style>
</head><body>
${options.seller ? `<p>${escapeHtml(options.seller)}</p>` : ''}<h1>Invoice ${escapeHtml(invoice.number)}</h1>
<p>Billed to: ${escapeHtml(options.customer ?? invoice.tenantId)}<br>Period: ${day(invoice.periodStart)} to ${day(invoice.periodEnd)}<br>Plan: ${escapeHtml(invoice.planId)}<br>Status: ${escapeHtml(invoice.status)}</p>
<table><thead><tr><th>Item</th><th class="n">Quantity</th><th class="n">Unit (minor units)</th><th class="n">Amount</th></tr></thead>
<tbody>
${rows}
</tbody>
<tfoot><tr><td colspan="3">Subtotal</td><td class="n">${money(invoice.subtotal)}</td></tr><tr><td colspan="3">Credits</td><td class="n">${money(invoice.credits)}</td></tr><tr><td colspan="3">Total</td><td class="n">${money(invoice.total)}</td></tr></tfoot>
</table>
</body></html>
`;
}
