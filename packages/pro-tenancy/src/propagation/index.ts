export { enableTenantStorage, disableTenantStorage, tenantBucketClient, tenantKeyPrefix } from './tenant-storage.js';
