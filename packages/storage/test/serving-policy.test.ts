import { expect } from 'chai';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { createBucketClient, isActiveContentType, servingPolicy, type BucketClient } from '../src/index.js';
import { bucketDefinition, postForm, startEngineServer, type EngineServer } from './helpers/engine-server.js';
import { startS3rver, type S3rverProcess } from './helpers/s3rver-process.js';

const SVG = '<svg xmlns="http://www.w3.org/2000/svg"><script>fetch("/api/me").then((r) => r.text()).then(alert)</script></svg>';
const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex');

describe('serving policy', () => {
  it('treats markup, XML and script as active, media and plain data as passive, unknown types as active', () => {
    for (const type of ['text/html', 'application/xhtml+xml', 'image/svg+xml', 'text/xml', 'application/xml', 'application/rss+xml', 'text/javascript', 'application/javascript', 'text/x-unknown', 'application/x-whatever']) {
      expect(isActiveContentType(type), type).to.equal(true);
    }
    for (const type of ['image/png', 'image/jpeg', 'video/mp4', 'audio/ogg', 'font/woff2', 'text/plain', 'application/pdf', 'application/json', 'application/octet-stream']) {
      expect(isActiveContentType(type), type).to.equal(false);
    }
  });

  it('serves an invalid stored type as an octet-stream attachment, and honours the bucket opt-in', () => {
    expect(servingPolicy('image/png,text/html')).to.deep.equal({ contentType: 'application/octet-stream', disposition: 'attachment' });
    expect(servingPolicy(undefined)).to.deep.equal({ contentType: 'application/octet-stream', disposition: 'attachment' });
    expect(servingPolicy('Text/HTML; charset=utf-8')).to.deep.equal({ contentType: 'Text/HTML; charset=utf-8', disposition: 'attachment' });
    expect(servingPolicy('text/html', true)).to.deep.equal({ contentType: 'text/html', disposition: 'inline' });
    expect(servingPolicy('image/png')).to.deep.equal({ contentType: 'image/png', disposition: 'inline' });
  });
});

describe('stored files are never served as pages of the dev server (local engine, real HTTP)', () => {
  let server: EngineServer;
  let images: BucketClient;
  let anything: BucketClient;
  let site: BucketClient;

  beforeEach(async () => {
    server = await startEngineServer([
      bucketDefinition('images', { allowedContentTypes: ['image/*'], cdn: true }),
      bucketDefinition('anything'),
      bucketDefinition('site', { inlineActiveContent: true }),
    ]);
    images = createBucketClient('images', { env: server.env });
    anything = createBucketClient('anything', { env: server.env });
    site = createBucketClient('site', { env: server.env });
  });
  afterEach(async () => server.close());

  it('an SVG with a script, uploaded to an image/* bucket, downloads as a sandboxed attachment', async () => {
    const upload = await images.presignUpload({ key: 'avatar.svg', contentType: 'image/svg+xml' });
    expect((await postForm(upload.url, upload.fields, { bytes: SVG, type: 'image/svg+xml' })).status).to.equal(204);
    for (const url of [(await images.presignDownload('avatar.svg')).url, images.publicUrl('avatar.svg')]) {
      const res = await fetch(url);
      expect(res.status).to.equal(200);
      expect(res.headers.get('content-disposition'), url).to.equal('attachment');
      expect(res.headers.get('x-content-type-options')).to.equal('nosniff');
      expect(res.headers.get('content-security-policy')).to.equal('sandbox');
      expect(await res.text()).to.equal(SVG);
    }
  });

  it('text/html on an unrestricted bucket downloads as an attachment; a PNG renders inline, unsniffed', async () => {
    await anything.put('page.html', '<script>alert(document.cookie)</script>', { contentType: 'text/html' });
    const html = await fetch((await anything.presignDownload('page.html')).url);
    expect([html.headers.get('content-disposition'), html.headers.get('content-type'), html.headers.get('content-security-policy')]).to.deep.equal(['attachment', 'text/html', 'sandbox']);

    await anything.put('logo.png', PNG, { contentType: 'image/png' });
    const png = await fetch((await anything.presignDownload('logo.png')).url, { method: 'GET' });
    expect(png.headers.get('content-disposition')).to.equal(null);
    expect(png.headers.get('x-content-type-options')).to.equal('nosniff');
    expect(Buffer.from(await png.arrayBuffer()).equals(PNG)).to.equal(true);
  });

  it('a bucket that opts in (inlineActiveContent) serves its pages inline, still in an opaque origin', async () => {
    await site.put('index.html', '<h1>report</h1>', { contentType: 'text/html' });
    const res = await fetch((await site.presignDownload('index.html')).url);
    expect(res.headers.get('content-disposition')).to.equal(null);
    expect(res.headers.get('content-security-policy')).to.equal('sandbox allow-scripts');
    expect(res.headers.get('x-content-type-options')).to.equal('nosniff');
    expect(server.env.FW_STORAGE_SITE_INLINE_ACTIVE_CONTENT).to.equal('true');
  });
});

describe('presigned S3 downloads carry the same choices (AWS SDK against s3rver)', function () {
  let s3: S3rverProcess;
  let dir: string;
  const client = (inline: boolean): BucketClient =>
    createBucketClient('uploads', {
      env: { FW_STORAGE_UPLOADS_BUCKET: 'acme-dev-uploads', FW_STORAGE_UPLOADS_URL: `${s3.endpoint}/acme-dev-uploads`, FW_STORAGE_UPLOADS_INLINE_ACTIVE_CONTENT: String(inline), FW_REGION: 'us-east-1' },
      s3: { endpoint: s3.endpoint, forcePathStyle: true, credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' }, requestChecksumCalculation: 'WHEN_REQUIRED', responseChecksumValidation: 'WHEN_REQUIRED' },
    });

  before(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'fw-s3rver-'));
    s3 = await startS3rver(dir, ['acme-dev-uploads']);
  });
  after(async () => {
    await s3.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it('an SVG is signed as an attachment with its type pinned; S3 answers with both', async () => {
    const bucket = client(false);
    await bucket.put('a/avatar.svg', SVG, { contentType: 'image/svg+xml' });
    const { url } = await bucket.presignDownload('a/avatar.svg');
    const query = new URL(url).searchParams;
    expect(query.get('response-content-disposition')).to.equal('attachment');
    expect(query.get('response-content-type')).to.equal('image/svg+xml');
    const res = await fetch(url);
    expect(res.status).to.equal(200);
    expect(res.headers.get('content-disposition')).to.equal('attachment');
  });

  it('a PNG is pinned to its type and stays inline; a missing object is pinned to an octet-stream attachment', async () => {
    const bucket = client(false);
    await bucket.put('a/logo.png', PNG, { contentType: 'image/png' });
    const png = new URL((await bucket.presignDownload('a/logo.png')).url).searchParams;
    expect([png.get('response-content-type'), png.get('response-content-disposition')]).to.deep.equal(['image/png', null]);
    const missing = new URL((await bucket.presignDownload('a/later.html')).url).searchParams;
    expect([missing.get('response-content-type'), missing.get('response-content-disposition')]).to.deep.equal(['application/octet-stream', 'attachment']);
  });

  it('a bucket that opts in gets no overrides', async () => {
    const bucket = client(true);
    await bucket.put('a/page.html', '<h1>hi</h1>', { contentType: 'text/html' });
    const query = new URL((await bucket.presignDownload('a/page.html')).url).searchParams;
    expect([query.get('response-content-type'), query.get('response-content-disposition')]).to.deep.equal([null, null]);
  });
});
