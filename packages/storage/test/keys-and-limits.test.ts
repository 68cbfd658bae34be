import { expect } from 'chai';
import {
  ContentTypeNotAllowedError,
  ContentTypeRequiredError,
  contentTypeAllowed,
  encodeObjectKey,
  InvalidStorageOptionError,
  objectKeyProblem,
  resolveUploadPolicy,
  UploadTooLargeError,
  uploadConditions,
} from '../src/index.js';

describe('object keys', () => {
  it('accepts ordinary S3 keys, including dots inside names and unicode', () => {
    for (const key of ['a', 'avatars/ada.png', 'a..b/c...d', 'reports/2026/q1 final (v2).pdf', 'ünïcode/日本.txt', 'x'.repeat(1024)]) {
      expect(objectKeyProblem(key), key).to.equal(undefined);
    }
  });

  it('refuses keys that escape a folder or break tools', () => {
    expect(objectKeyProblem('')).to.contain('empty');
    expect(objectKeyProblem('../a')).to.contain('".."');
    expect(objectKeyProblem('a/..')).to.contain('".."');
    expect(objectKeyProblem('/a')).to.contain('starts with "/"');
    expect(objectKeyProblem('a\\b')).to.contain('backslash');
    expect(objectKeyProblem('a\nb')).to.contain('control');
    expect(objectKeyProblem('a\u007fb')).to.contain('control');
    // 1024 bytes, not characters: 342 three-byte characters are 1026 bytes
    expect(objectKeyProblem('日'.repeat(342))).to.contain('1024 bytes');
    expect(objectKeyProblem(42)).to.contain('string');
  });

  it('encodes each segment for URLs and keeps the slashes', () => {
    expect(encodeObjectKey('a b/c+d/ü.png')).to.equal('a%20b/c%2Bd/%C3%BC.png');
  });
});

describe('content types', () => {
  it('matches exact types and families, ignoring parameters and case', () => {
    expect(contentTypeAllowed('image/png', ['image/*'])).to.equal(true);
    expect(contentTypeAllowed('Text/Plain; charset=utf-8', ['text/plain'])).to.equal(true);
    expect(contentTypeAllowed('text/html', ['text/plain', 'image/*'])).to.equal(false);
    expect(contentTypeAllowed('imagex/png', ['image/*'])).to.equal(false);
    expect(contentTypeAllowed('anything/at-all', undefined)).to.equal(true);
  });
});

describe('upload policy', () => {
  const limits = { bucketId: 'uploads', maxUploadBytes: 1000, allowedContentTypes: ['image/*'] };

  it('defaults to the bucket limit and 15 minutes, and binds key, size range and type in S3 conditions', () => {
    const policy = resolveUploadPolicy(limits, { key: 'a.png', contentType: 'image/png' });
    expect(policy).to.deep.equal({ key: 'a.png', contentType: 'image/png', maxBytes: 1000, expiresIn: 900 });
    expect(uploadConditions('acme-dev-uploads', policy)).to.deep.equal([
      { bucket: 'acme-dev-uploads' },
      { key: 'a.png' },
      ['content-length-range', 0, 1000],
      ['eq', '$Content-Type', 'image/png'],
    ]);
  });

  it('refuses what the intent does not allow', () => {
    expect(() => resolveUploadPolicy(limits, { key: 'a.png', contentType: 'image/png', maxBytes: 1001 })).to.throw(UploadTooLargeError);
    expect(() => resolveUploadPolicy(limits, { key: 'a.txt', contentType: 'text/plain' })).to.throw(ContentTypeNotAllowedError);
    expect(() => resolveUploadPolicy(limits, { key: 'a.png' })).to.throw(ContentTypeRequiredError);
    expect(() => resolveUploadPolicy(limits, { key: 'a.png', contentType: 'image/png', expiresIn: 0 })).to.throw(InvalidStorageOptionError);
    expect(() => resolveUploadPolicy(limits, { key: 'a.png', contentType: 'image/png', expiresIn: 604801 })).to.throw(InvalidStorageOptionError);
    expect(() => resolveUploadPolicy(limits, { key: 'a.png', contentType: 'image/png', maxBytes: 1.5 })).to.throw(InvalidStorageOptionError);
  });

  it('lets any content type through when the bucket allows any', () => {
    const policy = resolveUploadPolicy({ bucketId: 'b', maxUploadBytes: 10 }, { key: 'k' });
    expect(uploadConditions('b', policy)[3]).to.deep.equal(['starts-with', '$Content-Type', '']);
  });
});
