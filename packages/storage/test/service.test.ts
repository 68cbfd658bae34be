import { expect } from 'chai';
import { getService, resetService } from '@framework/runtime';
import { BucketNotConfiguredError, createStorageService, LocalBucketClient, S3BucketClient } from '../src/index.js';

describe('service.storage', () => {
  const saved = { ...process.env };
  afterEach(() => {
    for (const key of Object.keys(process.env)) if (!(key in saved)) delete process.env[key];
    Object.assign(process.env, saved);
    resetService();
  });

  it('is on the runtime service object once the package is imported, one cached client per bucket', () => {
    process.env.FW_STORAGE_UPLOADS_BUCKET = 'acme-prod-uploads';
    process.env.FW_STORAGE_UPLOADS_URL = 'https://d111111abcdef8.cloudfront.net';
    delete process.env.FW_DEV_ENDPOINT;
    const storage = getService().storage;
    const uploads = storage.bucket('uploads');
    expect(uploads).to.be.instanceOf(S3BucketClient);
    expect((storage as unknown as Record<string, unknown>).uploads).to.equal(uploads);
    expect(uploads.publicUrl('a/b.png')).to.equal('https://d111111abcdef8.cloudfront.net/a/b.png');
  });

  it('talks to the dev server when FW_DEV_ENDPOINT is set', () => {
    const storage = createStorageService({ env: { FW_DEV_ENDPOINT: 'http://127.0.0.1:3000', FW_STORAGE_UPLOADS_BUCKET: 'uploads', FW_STORAGE_UPLOADS_URL: 'http://127.0.0.1:3000/_dev/storage/uploads' } });
    expect(storage.bucket('uploads')).to.be.instanceOf(LocalBucketClient);
  });

  it('names the missing variable and the fix for an undeclared bucket', () => {
    const storage = createStorageService({ env: {} });
    expect(() => storage.bucket('photos')).to.throw(BucketNotConfiguredError, /FW_STORAGE_PHOTOS_BUCKET.*infrastructure\.storage/);
  });

  it('is not mistaken for a promise', async () => {
    const storage = createStorageService({ env: {} });
    expect(await Promise.resolve(storage)).to.equal(storage);
  });
});
