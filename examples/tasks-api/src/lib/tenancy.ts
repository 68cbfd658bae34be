import { enableRowLevelSecurity, enableTenantStorage, tenantMiddleware } from '@framework-pro/tenancy';

// Every statement of this app runs as fw_app with the request's tenant for its transaction only (migrations/
// 0010_tenancy.sql creates the role and the policies): a query that forgets the tenant sees no rows, never another
// tenant's.
enableRowLevelSecurity();
// And every bucket client refuses a key outside `<tenant>/` (src/lib/attachments.ts builds keys under it).
enableTenantStorage();

/**
 * The tenant of a request: the signed-in user's `custom:tenant_id` claim (`POST /_dev/token { "tenant": "acme" }`
 * locally), or for a machine client (`reporting`) the `x-tenant-id` header. Listed first in a route's middleware,
 * so the idempotency records, queue messages and statements that follow are the tenant's.
 */
export const tenancy = tenantMiddleware({ from: ['claim', 'header'] });
