import { sql } from '@framework/data';
import { Conflict, handler } from '@framework/runtime';
import { requireTenant } from '@framework-pro/tenancy';
import * as z from '../../../lib/zod.js';
import { billingProvider } from '../../../lib/billing.js';
import { tenancy } from '../../../lib/tenancy.js';

/**
 * POST /billing/checkout `{ plan, seats?, successUrl, cancelUrl }` → `{ id, url }`: the provider's payment page for
 * the plan. The snapshot (and so the entitlements) changes when the provider's webhook says it was paid.
 */
export const main = handler({
  scopes: ['tasks:admin'],
  middleware: [tenancy],
  body: z.object({ plan: z.enum(['pro']), seats: z.optional(z.int().check(z.minimum(1), z.maximum(1000))), successUrl: z.url(), cancelUrl: z.url() }),
  fn: async (body, ctx, service) => {
    const tenant = requireTenant(ctx);
    const customer = await service.db.maybeOne<{ customer_id: string }>(sql`SELECT customer_id FROM billing_customers`);
    if (!customer) throw new Conflict('The tenant is no customer yet: POST /billing/subscribe first');
    return billingProvider().createCheckoutSession({ customerId: customer.customer_id, tenantId: tenant.id, plan: body.plan, ...(body.seats ? { seats: body.seats } : {}), successUrl: body.successUrl, cancelUrl: body.cancelUrl });
  },
});
