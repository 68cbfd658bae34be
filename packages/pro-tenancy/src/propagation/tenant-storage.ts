import { currentTenant } from '@framework/runtime';
import { setBucketClientDecorator, type BucketClient } from '@framework/storage';
import { TenantStorageKeyError } from '../errors.js';
import { allTenantsReason } from '../rls/all-tenants-scope.js';

/** Where a tenant's objects live in every bucket: `<tenant id>/...`. */
export function tenantKeyPrefix(tenantId: string): string {
  return `${tenantId}/`;
}

/**
 * The key, checked against the current tenant at the time of the call: inside a tenant it must start with
 * `<tenant>/`; inside `asAllTenants` any key goes; outside both nothing does (forgetting the tenant fails loudly, it
 * never reaches another tenant's files).
 */
function confined(key: string): string {
  const tenant = currentTenant();
  if (tenant === undefined) {
    if (allTenantsReason() !== undefined) return key;
    throw new TenantStorageKeyError(key, undefined);
  }
  const prefix = tenantKeyPrefix(tenant.id);
  if (typeof key !== 'string' || !key.startsWith(prefix)) throw new TenantStorageKeyError(String(key), prefix);
  return key;
}

/** The client, with every key checked by `confined` (a listing without a prefix lists the tenant's prefix). */
export function tenantBucketClient(client: BucketClient): BucketClient {
  return {
    id: client.id,
    presignUpload: async (options) => client.presignUpload({ ...options, key: confined(options.key) }),
    presignDownload: async (key, options) => client.presignDownload(confined(key), options),
    put: async (key, body, options) => client.put(confined(key), body, options),
    get: async (key) => client.get(confined(key)),
    head: async (key) => client.head(confined(key)),
    delete: async (key) => client.delete(confined(key)),
    list: async (options = {}) => {
      const tenant = currentTenant();
      const prefix = options.prefix ?? (tenant ? tenantKeyPrefix(tenant.id) : '');
      return client.list({ ...options, prefix: prefix === '' && allTenantsReason() !== undefined ? prefix : confined(prefix) });
    },
    publicUrl: (key) => client.publicUrl(confined(key)),
  };
}

/**
 * Confines every bucket client made from now on (`service.storage.*`) to the current tenant's prefix: a key outside
 * `<tenant>/` is refused with `TenantStorageKeyError` (FW_ERR_TENANCY_STORAGE_KEY) before any request leaves.
 */
export function enableTenantStorage(): void {
  setBucketClientDecorator(tenantBucketClient);
}

/** Stops confining clients made from now on (tests). */
export function disableTenantStorage(): void {
  setBucketClientDecorator(undefined);
}
