import { expect } from 'chai';
import { request as httpRequest } from 'node:http';
import { readdir } from 'node:fs/promises';
import { createBucketClient, ContentTypeNotAllowedError, ContentTypeRequiredError, InvalidObjectKeyError, LOCAL_CLIENT_HEADER, StorageRequestError, UploadTooLargeError, type BucketClient } from '../src/index.js';
import { devServerNotifier } from '../src/local/index.js';
import { objectsCreated } from '../src/events/index.js';
import { bucketDefinition, postForm, startEngineServer, type EngineServer } from './helpers/engine-server.js';
import { bucketFiles, text, waitFor } from './helpers/files.js';

const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex');

/** Sends a request with the path exactly as written (fetch would normalize `..` away). */
function rawRequest(baseUrl: string, method: string, rawPath: string, headers: Record<string, string> = {}, body?: string): Promise<{ status: number; body: string }> {
  const url = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: url.hostname, port: url.port, method, path: rawPath, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

const s3Code = (body: string) => /<Code>([^<]*)<\/Code>/.exec(body)?.[1];

describe('local storage engine, through real HTTP', () => {
  let server: EngineServer;
  let uploads: BucketClient;
  let images: BucketClient;
  let clock = 0;

  beforeEach(async () => {
    clock = 0;
    server = await startEngineServer(
      [bucketDefinition('uploads', { maxUploadBytes: 1024 }), bucketDefinition('images', { allowedContentTypes: ['image/*'], cdn: true, corsOrigins: ['http://app.localhost'] })],
      { now: () => Date.now() + clock },
    );
    uploads = createBucketClient('uploads', { env: server.env });
    images = createBucketClient('images', { env: server.env });
  });
  afterEach(async () => server.close());

  it('presigns an upload, accepts the form upload, then downloads, lists and deletes the object', async () => {
    // Given a presigned upload for a PNG
    const upload = await images.presignUpload({ key: 'avatars/ada.png', contentType: 'image/png', maxBytes: 100 });
    expect(upload.url).to.equal(`${server.baseUrl}/_dev/storage/images`);
    expect(upload.fields).to.include({ key: 'avatars/ada.png', 'Content-Type': 'image/png', bucket: 'images' });

    // When a browser (or curl -F) posts the form with the file last
    const res = await postForm(upload.url, upload.fields, { bytes: PNG, type: 'image/png' });

    // Then S3's answer: 204 with the ETag, and the object is readable through a presigned download
    expect(res.status).to.equal(204);
    expect(res.headers.get('etag')).to.match(/^"[0-9a-f]{32}"$/);
    const download = await images.presignDownload('avatars/ada.png', { expiresIn: 60 });
    const got = await fetch(download.url);
    expect(got.status).to.equal(200);
    expect(got.headers.get('content-type')).to.equal('image/png');
    expect(Buffer.from(await got.arrayBuffer()).equals(PNG)).to.equal(true);

    // And listed, then deleted
    const page = await images.list();
    expect(page.objects.map((o) => [o.key, o.size])).to.deep.equal([['avatars/ada.png', PNG.length]]);
    await images.delete('avatars/ada.png');
    expect(await images.get('avatars/ada.png')).to.equal(undefined);
    expect((await fetch(download.url)).status).to.equal(404);
  });

  it('puts, heads and streams objects for the function', async () => {
    const { etag } = await uploads.put('notes/a.txt', 'hello storage', { contentType: 'text/plain' });
    const head = await uploads.head('notes/a.txt');
    expect(head).to.include({ key: 'notes/a.txt', size: 13, etag, contentType: 'text/plain' });
    const object = await uploads.get('notes/a.txt');
    expect(object?.contentType).to.equal('text/plain');
    expect(await text(object!.body)).to.equal('hello storage');
    expect(await uploads.head('notes/missing.txt')).to.equal(undefined);
  });

  it('lists in key order, page by page, under a prefix', async () => {
    for (const key of ['b/2', 'a/1', 'b/1', 'b/3', 'c/1']) await uploads.put(key, key);
    const seen: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = await uploads.list({ prefix: 'b/', limit: 2, cursor });
      seen.push(...page.objects.map((o) => o.key));
      cursor = page.cursor;
      pages++;
    } while (cursor);
    expect(seen).to.deep.equal(['b/1', 'b/2', 'b/3']);
    expect(pages).to.equal(2);
  });

  describe('rejects bad uploads with S3 error codes and writes nothing', () => {
    async function expectNothingWritten(bucket = 'images') {
      expect(await bucketFiles(server.rootDir, bucket)).to.deep.equal({ objects: [], temp: [] });
    }

    it('a tampered policy: SignatureDoesNotMatch', async () => {
      const upload = await images.presignUpload({ key: 'a.png', contentType: 'image/png', maxBytes: 10 });
      const policy = JSON.parse(Buffer.from(upload.fields.Policy!, 'base64').toString()) as { conditions: unknown[] };
      policy.conditions = policy.conditions.map((c) => (Array.isArray(c) && c[0] === 'content-length-range' ? ['content-length-range', 0, 10_000_000] : c));
      const res = await postForm(upload.url, { ...upload.fields, Policy: Buffer.from(JSON.stringify(policy)).toString('base64') }, { bytes: PNG, type: 'image/png' });
      expect(res.status).to.equal(403);
      expect(s3Code(await res.text())).to.equal('SignatureDoesNotMatch');
      await expectNothingWritten();
    });

    it('a changed key: AccessDenied (policy condition failed)', async () => {
      const upload = await images.presignUpload({ key: 'mine.png', contentType: 'image/png' });
      const res = await postForm(upload.url, { ...upload.fields, key: 'someone-else.png' }, { bytes: PNG, type: 'image/png' });
      expect(res.status).to.equal(403);
      const body = await res.text();
      expect(s3Code(body)).to.equal('AccessDenied');
      expect(body).to.contain('Policy Condition failed');
      await expectNothingWritten();
    });

    it('an expired policy: AccessDenied', async () => {
      const upload = await images.presignUpload({ key: 'late.png', contentType: 'image/png', expiresIn: 60 });
      clock = 61_000;
      const res = await postForm(upload.url, upload.fields, { bytes: PNG, type: 'image/png' });
      expect(res.status).to.equal(403);
      expect(await res.text()).to.contain('Policy expired');
      await expectNothingWritten();
    });

    it('an oversized file: EntityTooLarge', async () => {
      const upload = await images.presignUpload({ key: 'big.png', contentType: 'image/png', maxBytes: 16 });
      const res = await postForm(upload.url, upload.fields, { bytes: Buffer.alloc(64 * 1024, 1), type: 'image/png' });
      expect(res.status).to.equal(400);
      expect(s3Code(await res.text())).to.equal('EntityTooLarge');
      await expectNothingWritten();
    });

    it('a file of exactly maxBytes is accepted (the range is inclusive)', async () => {
      const upload = await images.presignUpload({ key: 'exact.png', contentType: 'image/png', maxBytes: 16 });
      const res = await postForm(upload.url, upload.fields, { bytes: Buffer.alloc(16, 1), type: 'image/png' });
      expect(res.status).to.equal(204);
    });

    it('a different content type: AccessDenied', async () => {
      const upload = await images.presignUpload({ key: 'x.png', contentType: 'image/png' });
      const res = await postForm(upload.url, { ...upload.fields, 'Content-Type': 'text/html' }, { bytes: '<script>alert(1)</script>', type: 'text/html' });
      expect(res.status).to.equal(403);
      expect(s3Code(await res.text())).to.equal('AccessDenied');
      await expectNothingWritten();
    });

    it('an extra field the policy does not cover: AccessDenied', async () => {
      const upload = await images.presignUpload({ key: 'x.png', contentType: 'image/png' });
      const res = await postForm(upload.url, { ...upload.fields, 'x-amz-meta-owner': 'mallory' }, { bytes: PNG, type: 'image/png' });
      expect(res.status).to.equal(403);
      expect(await res.text()).to.contain('Extra input fields: x-amz-meta-owner');
      await expectNothingWritten();
    });

    it('an upload cut off mid-file: no object, no temp file', async () => {
      const upload = await images.presignUpload({ key: 'cut.png', contentType: 'image/png' });
      const boundary = 'fwboundary';
      const head = Object.entries(upload.fields).map(([name, value]) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`).join('')
        + `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="cut.png"\r\nContent-Type: image/png\r\n\r\n`;
      const url = new URL(upload.url);
      await new Promise<void>((resolve) => {
        const req = httpRequest({ host: url.hostname, port: url.port, method: 'POST', path: url.pathname, headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, 'content-length': String(head.length + 100_000) } });
        req.on('error', () => resolve());
        req.write(head);
        req.write(Buffer.alloc(10_000, 1), () => setTimeout(() => { req.destroy(); resolve(); }, 50));
      });
      const deadline = Date.now() + 5000;
      let files = await bucketFiles(server.rootDir, 'images');
      while ((files.temp.length || files.objects.length) && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 20));
        files = await bucketFiles(server.rootDir, 'images');
      }
      expect(files).to.deep.equal({ objects: [], temp: [] });
    });

    it('an unsigned form: AccessDenied', async () => {
      const res = await postForm(`${server.baseUrl}/_dev/storage/images`, { key: 'free.png', 'Content-Type': 'image/png' }, { bytes: PNG });
      expect(res.status).to.equal(403);
      expect(s3Code(await res.text())).to.equal('AccessDenied');
      await expectNothingWritten();
    });
  });

  it('refuses to presign past the intent: size, content type, missing type', async () => {
    let error: unknown;
    await images.presignUpload({ key: 'a.txt', contentType: 'text/plain' }).catch((e: unknown) => (error = e));
    expect(error).to.be.instanceOf(ContentTypeNotAllowedError);
    await images.presignUpload({ key: 'a.png' }).catch((e: unknown) => (error = e));
    expect(error).to.be.instanceOf(ContentTypeRequiredError);
    await uploads.presignUpload({ key: 'a.bin', maxBytes: 1025 }).catch((e: unknown) => (error = e));
    expect(error).to.be.instanceOf(UploadTooLargeError);
    // And the engine checks again when asked directly, bypassing the client's checks
    const res = await fetch(`${server.baseUrl}/_dev/storage/uploads?presign`, {
      method: 'POST',
      headers: { [LOCAL_CLIENT_HEADER]: server.env.FW_DEV_STORAGE_TOKEN!, 'content-type': 'application/json' },
      body: JSON.stringify({ operation: 'upload', key: 'a.bin', maxBytes: 5_000_000, expiresIn: 60 }),
    });
    expect(res.status).to.equal(400);
    expect(await res.text()).to.contain('maxUploadBytes');
  });

  describe('keys that try to escape the folder', () => {
    for (const key of ['../outside.txt', 'a/../../outside.txt', '/etc/passwd', 'a\\..\\b', 'a/./b', 'nul\u0000byte', 'x'.repeat(1025)]) {
      it(`refuses ${JSON.stringify(key.length > 40 ? key.slice(0, 20) + '...' : key)} in the client`, async () => {
        let error: unknown;
        await uploads.put(key, 'x').catch((e: unknown) => (error = e));
        expect(error).to.be.instanceOf(InvalidObjectKeyError);
        await uploads.presignUpload({ key }).catch((e: unknown) => (error = e));
        expect(error).to.be.instanceOf(InvalidObjectKeyError);
      });
    }

    it('answers InvalidArgument to raw requests with a dot-dot key and writes nothing outside the bucket', async () => {
      for (const rawPath of ['/_dev/storage/uploads/../../outside.txt', '/_dev/storage/uploads/a/%2E%2E/%2e%2e/outside.txt', '/_dev/storage/uploads/..%2F..%2Foutside.txt']) {
        const res = await rawRequest(server.baseUrl, 'PUT', rawPath, { [LOCAL_CLIENT_HEADER]: server.env.FW_DEV_STORAGE_TOKEN!, 'content-type': 'text/plain' }, 'pwned');
        expect(res.status, rawPath).to.equal(400);
        expect(s3Code(res.body)).to.equal('InvalidArgument');
      }
      expect(await readdir(server.rootDir)).to.deep.equal(['.fw']);
      expect(await bucketFiles(server.rootDir, 'uploads')).to.deep.equal({ objects: [], temp: [] });
    });

    it('refuses a presigned form whose key was changed to a dot-dot key (AccessDenied)', async () => {
      const upload = await uploads.presignUpload({ key: 'ok.txt' });
      const res = await postForm(upload.url, { ...upload.fields, key: '../../outside.txt' }, { bytes: 'x' });
      expect(res.status).to.equal(403);
      expect(s3Code(await res.text())).to.equal('AccessDenied');
      expect(await bucketFiles(server.rootDir, 'uploads')).to.deep.equal({ objects: [], temp: [] });
    });
  });

  describe('downloads', () => {
    beforeEach(async () => {
      await uploads.put('secret.txt', 'top secret', { contentType: 'text/plain' });
    });

    it('a tampered download URL: SignatureDoesNotMatch', async () => {
      const { url } = await uploads.presignDownload('secret.txt');
      await uploads.put('other.txt', 'other');
      const res = await fetch(url.replace('secret.txt', 'other.txt'));
      expect(res.status).to.equal(403);
      expect(s3Code(await res.text())).to.equal('SignatureDoesNotMatch');
      const later = new URL(url);
      later.searchParams.set('X-Fw-Expires', String(Number(later.searchParams.get('X-Fw-Expires')) + 3600));
      expect(s3Code(await (await fetch(later)).text())).to.equal('SignatureDoesNotMatch');
    });

    it('an expired download URL: AccessDenied', async () => {
      const { url } = await uploads.presignDownload('secret.txt', { expiresIn: 5 });
      clock = 6_000;
      const res = await fetch(url);
      expect(res.status).to.equal(403);
      expect(await res.text()).to.contain('Request has expired');
    });

    it('a private bucket refuses unsigned reads and writes; a CDN bucket serves its public URL', async () => {
      expect((await fetch(uploads.publicUrl('secret.txt'))).status).to.equal(403);
      expect((await fetch(uploads.publicUrl('x.txt'), { method: 'PUT', body: 'x' })).status).to.equal(403);
      await images.put('logo.png', PNG, { contentType: 'image/png' });
      const res = await fetch(images.publicUrl('logo.png'));
      expect(res.status).to.equal(200);
      expect(Buffer.from(await res.arrayBuffer()).equals(PNG)).to.equal(true);
    });

    it('CORS: an allowed origin may post forms, the object API stays closed to pages', async () => {
      const ok = await fetch(`${server.baseUrl}/_dev/storage/images`, { method: 'OPTIONS', headers: { origin: 'http://app.localhost', 'access-control-request-method': 'POST' } });
      expect(ok.status).to.equal(200);
      expect(ok.headers.get('access-control-allow-origin')).to.equal('http://app.localhost');
      const sneaky = await fetch(`${server.baseUrl}/_dev/storage/images/x.png`, { method: 'OPTIONS', headers: { origin: 'http://app.localhost', 'access-control-request-method': 'PUT', 'access-control-request-headers': LOCAL_CLIENT_HEADER } });
      expect(sneaky.status).to.equal(403);
      const stranger = await fetch(`${server.baseUrl}/_dev/storage/images`, { method: 'OPTIONS', headers: { origin: 'http://evil.localhost', 'access-control-request-method': 'POST' } });
      expect(stranger.status).to.equal(403);
    });
  });

  it('keeps objects across a restart', async () => {
    await uploads.put('kept.txt', 'still here', { contentType: 'text/plain' });
    const rootDir = server.rootDir;
    await server.close({ keepFiles: true });
    server = await startEngineServer([bucketDefinition('uploads', { maxUploadBytes: 1024 }), bucketDefinition('images')], { rootDir });
    const again = createBucketClient('uploads', { env: server.env });
    expect((await again.list()).objects.map((o) => o.key)).to.deep.equal(['kept.txt']);
    expect(await text((await again.get('kept.txt'))!.body)).to.equal('still here');
    // The signing secret survived too: a URL presigned before the restart would still verify.
    expect(await readdir(`${rootDir}/.fw/storage`)).to.include('.secret');
  });

  it('a missing bucket answers NoSuchBucket', async () => {
    const res = await fetch(`${server.baseUrl}/_dev/storage/nope/x.txt`);
    expect(res.status).to.equal(404);
    expect(s3Code(await res.text())).to.equal('NoSuchBucket');
    let error: unknown;
    await createBucketClient('uploads', { env: { ...server.env, FW_STORAGE_UPLOADS_URL: `${server.baseUrl}/_dev/storage/nope` } })
      .put('x', 'y')
      .catch((e: unknown) => (error = e));
    expect(error).to.be.instanceOf(StorageRequestError).with.property('s3Code', 'NoSuchBucket');
    const wrongBucket = createBucketClient('uploads', { env: { ...server.env, FW_STORAGE_UPLOADS_URL: `${server.baseUrl}/_dev/storage/nope` } });
    error = undefined;
    await wrongBucket.get('x').catch((e: unknown) => (error = e));
    expect(error, 'a missing bucket is not a missing object').to.be.instanceOf(StorageRequestError);
  });
});

describe('upload notifications, locally', () => {
  let server: EngineServer;
  afterEach(async () => server.close());

  it('sends an S3 event to the queue and invokes the function (with its prefix filter) through the dev endpoints', async () => {
    let base = '';
    server = await startEngineServer(
      [bucketDefinition('inbox', { notifications: [{ queue: 'arrivals' }, { function: 'thumbs/make', prefix: 'images/' }] })],
      { notify: devServerNotifier(() => base) },
    );
    base = server.baseUrl;
    const inbox = createBucketClient('inbox', { env: server.env });

    const upload = await inbox.presignUpload({ key: 'images/cat 1.png', contentType: 'image/png' });
    expect((await postForm(upload.url, upload.fields, { bytes: PNG })).status).to.equal(204);
    await inbox.put('docs/readme.txt', 'hi');

    const calls = await waitFor(() => (server.others.length >= 3 ? server.others : undefined), 'three deliveries');
    const queueCalls = calls.filter((c) => c.url === '/_dev/queues/arrivals/messages');
    const invokes = calls.filter((c) => c.url === '/_dev/invoke/thumbs/make');
    expect(queueCalls).to.have.length(2);
    expect(invokes).to.have.length(1);
    expect(invokes[0]!.headers['x-amz-invocation-type']).to.equal('Event');
    const messages = queueCalls.map((c) => objectsCreated((JSON.parse(c.body) as { body: string }).body)[0]!);
    expect(messages.map((m) => [m.key, m.eventName]).sort()).to.deep.equal([
      ['docs/readme.txt', 'ObjectCreated:Put'],
      ['images/cat 1.png', 'ObjectCreated:Post'],
    ]);
    expect(objectsCreated(JSON.parse(invokes[0]!.body))[0]).to.include({ bucket: 'inbox', key: 'images/cat 1.png', size: PNG.length });
  });
});

describe('lifecycle rules, locally', () => {
  let server: EngineServer;
  afterEach(async () => server.close());

  it('expires objects under a rule prefix once they are old enough, and keeps the others', async () => {
    let clock = 0;
    server = await startEngineServer([bucketDefinition('logs', { lifecycle: [{ prefix: 'tmp/', expireAfterDays: 30 }] })], { now: () => Date.now() + clock });
    const logs = createBucketClient('logs', { env: server.env });
    await logs.put('tmp/a.log', 'a');
    await logs.put('keep/b.log', 'b');

    clock = 29 * 86_400_000;
    expect(await server.engine.applyLifecycle()).to.deep.equal({});
    clock = 30 * 86_400_000;
    expect(await server.engine.applyLifecycle()).to.deep.equal({ logs: ['tmp/a.log'] });
    expect((await logs.list()).objects.map((o) => o.key)).to.deep.equal(['keep/b.log']);
  });
});
