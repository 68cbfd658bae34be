import { expect } from 'chai';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { createBucketClient, S3BucketClient, type BucketClient } from '../src/index.js';
import { postForm } from './helpers/engine-server.js';
import { text } from './helpers/files.js';
import { startS3rver, type S3rverProcess } from './helpers/s3rver-process.js';

/**
 * The deployed client path: the AWS SDK v3 against s3rver, a local S3-compatible server (AWS itself is the one thing
 * not run here), in a child process on a free port. s3rver does not verify presigned-URL signatures or POST policy
 * conditions, so those are asserted on what the SDK produced; the local engine's tests cover the verification.
 */
describe('deployed bucket client (AWS SDK against s3rver)', function () {
  let server: S3rverProcess;
  let dir: string;
  let endpoint: string;
  let bucket: BucketClient;

  before(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'fw-s3rver-'));
    server = await startS3rver(dir, ['acme-dev-uploads']);
    endpoint = server.endpoint;
    const env = { FW_STORAGE_UPLOADS_BUCKET: 'acme-dev-uploads', FW_STORAGE_UPLOADS_URL: `${endpoint}/acme-dev-uploads`, FW_STORAGE_UPLOADS_MAX_UPLOAD_BYTES: '2048', FW_STORAGE_UPLOADS_CONTENT_TYPES: '', FW_REGION: 'us-east-1' };
    bucket = createBucketClient('uploads', {
      env,
      s3: {
        endpoint,
        forcePathStyle: true,
        credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
        // s3rver predates the SDK's default request checksums (aws-chunked bodies).
        requestChecksumCalculation: 'WHEN_REQUIRED',
        responseChecksumValidation: 'WHEN_REQUIRED',
      },
    });
  });
  after(async () => {
    await server.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it('is the S3 client when FW_DEV_ENDPOINT is not set', () => {
    expect(bucket).to.be.instanceOf(S3BucketClient);
  });

  it('puts, gets (stream), heads, lists page by page and deletes', async () => {
    for (const key of ['r/1.txt', 'r/2.txt', 'r/3.txt']) await bucket.put(key, `body of ${key}`, { contentType: 'text/plain' });
    const object = await bucket.get('r/2.txt');
    expect(object).to.include({ key: 'r/2.txt', contentType: 'text/plain', size: 15 });
    expect(await text(object!.body)).to.equal('body of r/2.txt');
    expect((await bucket.head('r/1.txt'))?.size).to.equal(15);

    const first = await bucket.list({ prefix: 'r/', limit: 2 });
    expect(first.objects.map((o) => o.key)).to.deep.equal(['r/1.txt', 'r/2.txt']);
    expect(first.cursor).to.be.a('string');
    const second = await bucket.list({ prefix: 'r/', limit: 2, cursor: first.cursor });
    expect(second.objects.map((o) => o.key)).to.deep.equal(['r/3.txt']);
    expect(second.cursor).to.equal(undefined);

    await bucket.delete('r/2.txt');
    expect(await bucket.get('r/2.txt')).to.equal(undefined);
    expect(await bucket.head('r/2.txt')).to.equal(undefined);
  });

  it('presigns a POST upload (policy with content-length-range and Content-Type) that S3 accepts', async () => {
    const upload = await bucket.presignUpload({ key: 'in/photo.png', contentType: 'image/png', maxBytes: 1000, expiresIn: 120 });
    expect(upload.fields).to.include({ key: 'in/photo.png', 'Content-Type': 'image/png' });
    expect(upload.fields).to.have.property('X-Amz-Signature');
    const policy = JSON.parse(Buffer.from(upload.fields.Policy!, 'base64').toString()) as { conditions: unknown[] };
    expect(policy.conditions).to.deep.include(['content-length-range', 0, 1000]);
    expect(policy.conditions).to.deep.include(['eq', '$Content-Type', 'image/png']);

    const res = await postForm(upload.url, upload.fields, { bytes: 'not really a png', type: 'image/png' });
    expect(res.status, await res.text()).to.equal(204);
    expect((await bucket.head('in/photo.png'))?.contentType).to.equal('image/png');
  });

  it('presigns a SigV4 download URL that S3 serves', async () => {
    await bucket.put('d/report.txt', 'quarterly', { contentType: 'text/plain' });
    const { url, expiresAt } = await bucket.presignDownload('d/report.txt', { expiresIn: 60 });
    const query = new URL(url).searchParams;
    expect(query.get('X-Amz-Expires')).to.equal('60');
    expect(query.get('X-Amz-Signature')).to.match(/^[0-9a-f]{64}$/);
    expect(expiresAt.getTime()).to.be.greaterThan(Date.now());
    const ok = await fetch(url);
    expect(ok.status).to.equal(200);
    expect(await ok.text()).to.equal('quarterly');
  });

  it('builds public URLs under the bucket URL variable', () => {
    expect(bucket.publicUrl('a b/c.png')).to.equal(`${endpoint}/acme-dev-uploads/a%20b/c.png`);
  });
});
