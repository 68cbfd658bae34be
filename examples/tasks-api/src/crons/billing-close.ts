import { sql } from '@framework/data';
import { taskHandler } from '@framework/runtime';
import { asAllTenants, runWithTenant } from '@framework-pro/tenancy';
import { DEFAULT_GRACE_SECONDS, pushPendingUsage } from '@framework-pro/billing';
import { billing, billingProvider } from '../lib/billing.js';

/**
 * Every day: closes each tenant's billing period that ended (plus the grace window for late usage) into an invoice,
 * then sends the closed usage to the payment provider as meter events, and reconciles closed invoices with the
 * provider's invoices for the same periods (totals in cents). "Now" is the schedule's time, so the testing
 * package's clock drives it (`app.clock.advance('31d')`). Closing is idempotent: a retried run finds the invoices.
 */
export const main = taskHandler(
  async (event: { time?: string }, ctx, service) => {
    const now = event.time ? new Date(event.time) : new Date();
    const graceMs = (billing.plans.graceSeconds ?? DEFAULT_GRACE_SECONDS) * 1000;
    const due = await asAllTenants('billing period close', () =>
      service.db.many<{ tenant_id: string; period_start: Date; period_end: Date }>(sql`
        SELECT s.tenant_id, s.period_start, s.period_end FROM fw_billing_subscriptions s
        WHERE s.period_end <= ${new Date(now.getTime() - graceMs)}
          AND NOT EXISTS (SELECT 1 FROM fw_billing_invoices i WHERE i.tenant_id = s.tenant_id AND i.period_start = s.period_start)`),
    );
    for (const period of due) {
      const invoice = await runWithTenant({ id: period.tenant_id }, () => billing.closePeriod(period.tenant_id, { start: period.period_start, end: period.period_end }, { now }));
      ctx.logger.info('billing period closed', { tenant: period.tenant_id, invoice: invoice.number, total: invoice.total });
    }
    // Closing needs no provider; the push does. Without one (fw dev with no local fake started, a test app), the
    // closed usage waits for the next run instead of failing the close and its retries.
    let provider: ReturnType<typeof billingProvider>;
    try {
      provider = billingProvider();
    } catch (error) {
      if ((error as { code?: string }).code !== 'BILLING_PROVIDER_UNAVAILABLE') throw error;
      ctx.logger.warn('billing usage not pushed: no payment provider', { reason: (error as Error).message });
      return { closed: due.length };
    }
    const pushed = await asAllTenants('billing usage push', () => pushPendingUsage(service.db, provider));
    // Each closed invoice not matched yet against the provider's invoice for its period (the provider closes the
    // period on its own schedule, so a run finds it invoiced or waits for the next): a difference is logged with its
    // code and both line lists, and compared again next run.
    const open = await asAllTenants('billing reconciliation', () =>
      service.db.many<{ tenant_id: string; period_start: Date }>(sql`SELECT tenant_id, period_start FROM fw_billing_invoices WHERE provider_invoice_id IS NULL AND status <> 'void' ORDER BY period_start`),
    );
    let reconciled = 0;
    let mismatched = 0;
    for (const row of open) {
      const result = await runWithTenant({ id: row.tenant_id }, () => billing.reconcile(row.tenant_id, row.period_start, provider));
      if (result.status === 'matched') reconciled += 1;
      if (result.status === 'mismatch') {
        mismatched += 1;
        ctx.logger.error('billing invoice does not reconcile with the provider', { code: result.code, tenant: row.tenant_id, ours: result.ours, theirs: result.theirs, difference: result.difference, reason: result.message, lines: result.lines });
      }
    }
    return { closed: due.length, ...pushed, reconciled, mismatched };
  },
  { retries: 2 },
);
