import { expect } from 'chai';
import { contentTypeAllowed, contentTypeProblem, createBucketClient, InvalidContentTypeError, LOCAL_CLIENT_HEADER, resolveUploadPolicy, type BucketClient } from '../src/index.js';
import { bucketDefinition, postForm, startEngineServer, type EngineServer } from './helpers/engine-server.js';
import { bucketFiles } from './helpers/files.js';

const s3Code = (body: string) => /<Code>([^<]*)<\/Code>/.exec(body)?.[1];

/** Values that are not one media type: each must be refused wherever a content type enters. */
const NOT_ONE_MEDIA_TYPE = ['image/png,text/html', 'image/png, text/html', 'text/plain\r\nX-Injected: 1', 'image/png\n', 'image/png\rtext/html', 'image', 'image/', '/png', 'image/png;', 'image/png; charset', 'image/p ng', ' image/png', 'image/png; a=b,c'];

describe('content types are one media type (RFC 9110)', () => {
  it('accepts types with parameters, any case', () => {
    for (const type of ['image/png', 'Text/Plain; charset=utf-8', 'text/plain;charset="utf-8"', 'application/vnd.api+json', 'multipart/form-data; boundary=x-1']) {
      expect(contentTypeProblem(type), type).to.equal(undefined);
    }
  });

  it('refuses lists, line breaks and broken syntax', () => {
    for (const type of NOT_ONE_MEDIA_TYPE) expect(contentTypeProblem(type), JSON.stringify(type)).to.be.a('string');
  });

  it('an allowlist is not bypassed by a list of types', () => {
    expect(contentTypeAllowed('image/png,text/html', ['image/*'])).to.equal(false);
    expect(contentTypeAllowed('image/png;x=1,text/html', ['image/*'])).to.equal(false);
    expect(contentTypeAllowed('image/png; x=1', ['image/*'])).to.equal(true);
    // Not even a bucket that allows any type stores a value that is not a media type.
    expect(contentTypeAllowed('image/png,text/html', undefined)).to.equal(false);
  });

  it('presigning refuses it with a coded usage error, allowlist or not', () => {
    for (const allowed of [['image/*'], undefined]) {
      for (const contentType of NOT_ONE_MEDIA_TYPE) {
        expect(() => resolveUploadPolicy({ bucketId: 'b', maxUploadBytes: 10, allowedContentTypes: allowed }, { key: 'k', contentType }), JSON.stringify(contentType))
          .to.throw(InvalidContentTypeError)
          .with.property('code', 'FW_ERR_STORAGE_INVALID_CONTENT_TYPE');
      }
    }
  });
});

describe('content types at the local engine, through real HTTP', () => {
  let server: EngineServer;
  let images: BucketClient;
  let anything: BucketClient;

  beforeEach(async () => {
    server = await startEngineServer([bucketDefinition('images', { allowedContentTypes: ['image/*'] }), bucketDefinition('anything')]);
    images = createBucketClient('images', { env: server.env });
    anything = createBucketClient('anything', { env: server.env });
  });
  afterEach(async () => server.close());

  it('the client refuses to presign or put a list of types or a CRLF type', async () => {
    for (const contentType of ['image/png,text/html', 'text/plain\r\nX-Injected: 1']) {
      for (const attempt of [() => images.presignUpload({ key: 'a.png', contentType }), () => anything.presignUpload({ key: 'a', contentType }), () => anything.put('a', 'x', { contentType })]) {
        let error: unknown;
        await attempt().catch((e: unknown) => (error = e));
        expect(error, JSON.stringify(contentType)).to.be.instanceOf(InvalidContentTypeError);
      }
    }
  });

  it('the engine refuses to presign one, asked directly: 400 InvalidArgument naming the problem', async () => {
    for (const contentType of ['image/png,text/html', 'text/plain\r\nX-Injected: 1']) {
      const res = await fetch(`${server.baseUrl}/_dev/storage/images?presign`, {
        method: 'POST',
        headers: { [LOCAL_CLIENT_HEADER]: server.env.FW_DEV_STORAGE_TOKEN!, 'content-type': 'application/json' },
        body: JSON.stringify({ operation: 'upload', key: 'a.png', contentType, maxBytes: 100, expiresIn: 60 }),
      });
      expect(res.status).to.equal(400);
      const body = await res.text();
      expect(s3Code(body)).to.equal('InvalidArgument');
      expect(body).to.contain('FW_ERR_STORAGE_INVALID_CONTENT_TYPE');
    }
  });

  it('a form whose Content-Type is not one media type is refused when it arrives, and nothing is stored', async () => {
    // A bucket that allows any type signs `starts-with $Content-Type ""`: the form may carry any value.
    const upload = await anything.presignUpload({ key: 'page' });
    for (const contentType of ['image/png,text/html', 'text/plain\r\nX-Injected: 1']) {
      const res = await postForm(upload.url, { ...upload.fields, 'Content-Type': contentType }, { bytes: '<script>alert(1)</script>' });
      expect(res.status, JSON.stringify(contentType)).to.equal(400);
      const body = await res.text();
      expect(s3Code(body)).to.equal('InvalidArgument');
      expect(body).to.contain('Invalid Content-Type');
    }
    expect(await bucketFiles(server.rootDir, 'anything')).to.deep.equal({ objects: [], temp: [] });
    // And the object stays readable when the type is fine
    expect((await postForm(upload.url, { ...upload.fields, 'Content-Type': 'text/plain; charset=utf-8' }, { bytes: 'ok' })).status).to.equal(204);
    expect((await anything.get('page'))?.contentType).to.equal('text/plain; charset=utf-8');
  });

  it('a raw PUT with a list of types is refused', async () => {
    const res = await fetch(`${server.baseUrl}/_dev/storage/anything/x`, { method: 'PUT', headers: { [LOCAL_CLIENT_HEADER]: server.env.FW_DEV_STORAGE_TOKEN!, 'content-type': 'image/png,text/html' }, body: 'x' });
    expect(res.status).to.equal(400);
    expect(s3Code(await res.text())).to.equal('InvalidArgument');
  });
});
