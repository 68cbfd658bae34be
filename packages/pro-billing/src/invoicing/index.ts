export { closePeriod, type TransactionRunner } from './close-period.js';
export { grantCredit, type GrantCreditOptions, type GrantedCredit } from './credits.js';
export { periodSpans, subscriptionLines, usageLines, type CountedUsage, type DraftLine, type PlanSpan } from './invoice-lines.js';
export { readInvoice } from './invoice-store.js';
export { escapeHtml, formatMoney, renderInvoiceHtml, type RenderInvoiceOptions } from './render-invoice-html.js';
export { assertReconciled, compareInvoices, reconcileInvoice, type InvoiceReconciliation } from './reconcile-invoice.js';
