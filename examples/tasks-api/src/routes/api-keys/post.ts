import { handler } from '@framework/runtime';
import { apiKeyView } from '../../lib/api-key-view.js';
import { issuedApiKey, newApiKey } from '../../lib/integration-schemas.js';
import { apiKeys } from '../../lib/integrations.js';
import { tenancy } from '../../lib/tenancy.js';

/**
 * POST /api-keys `{ name, scopes, expiresInSeconds?, rateLimit? }` → 201 `{ key, ...record }`: admins only. The key
 * acts as the admin who issued it, for the admin's tenant only, with the scopes asked for; `key` is shown this once and
 * never stored.
 */
export const main = handler({
  scopes: ['tasks:admin'],
  body: newApiKey,
  response: issuedApiKey,
  middleware: [tenancy],
  fn: async (body, ctx) => {
    const issued = await apiKeys.issue({
      owner: ctx.auth.subject,
      // Bound to the issuer's tenant: the key's requests carry it as their tenant claim and cannot name another.
      ...(ctx.tenant ? { tenant: ctx.tenant.id } : {}),
      name: body.name,
      scopes: body.scopes,
      ...(body.expiresInSeconds ? { expiresAt: new Date(Date.now() + body.expiresInSeconds * 1000) } : {}),
      ...(body.rateLimit ? { rateLimit: body.rateLimit } : {}),
    });
    return { key: issued.key, ...apiKeyView(issued.record) };
  },
});
