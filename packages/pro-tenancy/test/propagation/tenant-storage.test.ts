import type { BucketClient } from '@framework/storage';
import { expect } from 'chai';
import { asAllTenants, runWithTenant, tenantBucketClient, TenantStorageKeyError } from '../../src/index.js';

/** A bucket client that records the keys it is asked for (the wrapper under test never reaches storage itself). */
function recordingBucket(): { client: BucketClient; keys: string[] } {
  const keys: string[] = [];
  const client = {
    id: 'attachments',
    presignUpload: async (o: { key: string }) => (keys.push(o.key), { url: 'u', method: 'POST', fields: {}, key: o.key, maxBytes: 1, expiresAt: new Date(0) }),
    presignDownload: async (key: string) => (keys.push(key), { url: 'u', expiresAt: new Date(0) }),
    put: async (key: string) => (keys.push(key), { key, etag: 'e' }),
    get: async (key: string) => void keys.push(key),
    head: async (key: string) => void keys.push(key),
    delete: async (key: string) => void keys.push(key),
    list: async (o?: { prefix?: string }) => (keys.push(`list:${o?.prefix ?? ''}`), { objects: [] }),
    publicUrl: (key: string) => (keys.push(key), `https://cdn/${key}`),
  } as unknown as BucketClient;
  return { client, keys };
}

describe('tenant storage: keys confined to the current tenant', () => {
  it("passes keys under <tenant>/ and refuses another tenant's, before the call reaches storage", async () => {
    const { client, keys } = recordingBucket();
    const bucket = tenantBucketClient(client);
    await runWithTenant({ id: 'acme' }, async () => {
      await bucket.put('acme/a.txt', 'x');
      await bucket.get('acme/a.txt');
      await bucket.presignUpload({ key: 'acme/b.png', contentType: 'image/png' });
      await bucket.list();
      for (const call of [() => bucket.get('globex/a.txt'), () => bucket.delete('acme'), () => bucket.presignDownload('globex/x'), () => bucket.list({ prefix: 'globex/' })]) {
        const error = await call().catch((e: unknown) => e);
        expect(error).to.be.instanceOf(TenantStorageKeyError).with.property('code', 'FW_ERR_TENANCY_STORAGE_KEY');
      }
      expect(() => bucket.publicUrl('globex/logo.png')).to.throw(TenantStorageKeyError);
    });
    expect(keys).to.deep.equal(['acme/a.txt', 'acme/a.txt', 'acme/b.png', 'list:acme/']);
  });

  it('refuses every key outside a tenant, and lets asAllTenants through', async () => {
    const { client, keys } = recordingBucket();
    const bucket = tenantBucketClient(client);
    expect(await bucket.get('acme/a.txt').catch((e: unknown) => e)).to.be.instanceOf(TenantStorageKeyError);
    await asAllTenants('offboarding export', async () => {
      await bucket.get('globex/a.txt');
      await bucket.list();
    });
    expect(keys).to.deep.equal(['globex/a.txt', 'list:']);
  });
});
