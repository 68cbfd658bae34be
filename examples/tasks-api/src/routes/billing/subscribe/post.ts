import { sql } from '@framework/data';
import { handler } from '@framework/runtime';
import { requireTenant } from '@framework-pro/tenancy';
import * as z from '../../../lib/zod.js';
import { billingProvider } from '../../../lib/billing.js';
import { tenancy } from '../../../lib/tenancy.js';

/**
 * POST /billing/subscribe `{ email }` → `{ customerId }`: the tenant becomes a customer of the payment provider
 * (receipts go to `email`). Until it pays for a plan it is on the default plan (`free`). Calling it again answers
 * the same customer.
 */
export const main = handler({
  scopes: ['tasks:admin'],
  middleware: [tenancy],
  body: z.object({ email: z.email() }),
  fn: async (body, ctx, service) => {
    const tenant = requireTenant(ctx);
    const existing = await service.db.maybeOne<{ customer_id: string }>(sql`SELECT customer_id FROM billing_customers`);
    if (existing) return { customerId: existing.customer_id };
    // The adapter's call is idempotent per tenant: a retry after a lost answer finds the same customer.
    const customer = await billingProvider().createCustomer({ tenantId: tenant.id, email: body.email });
    await service.db.query(sql`INSERT INTO billing_customers (customer_id, email) VALUES (${customer.id}, ${body.email}) ON CONFLICT (tenant_id) DO NOTHING`);
    return { customerId: customer.id };
  },
});
