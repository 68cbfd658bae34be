import { sql } from '@framework/data';
import { Conflict, handler } from '@framework/runtime';
import * as z from '../../../lib/zod.js';
import { billingProvider } from '../../../lib/billing.js';
import { tenancy } from '../../../lib/tenancy.js';

/** POST /billing/portal `{ returnUrl }` → `{ id, url }`: the provider's page to manage payment and invoices. */
export const main = handler({
  scopes: ['tasks:admin'],
  middleware: [tenancy],
  body: z.object({ returnUrl: z.url() }),
  fn: async (body, _ctx, service) => {
    const customer = await service.db.maybeOne<{ customer_id: string }>(sql`SELECT customer_id FROM billing_customers`);
    if (!customer) throw new Conflict('The tenant is no customer yet: POST /billing/subscribe first');
    return billingProvider().createPortalSession({ customerId: customer.customer_id, returnUrl: body.returnUrl });
  },
});
