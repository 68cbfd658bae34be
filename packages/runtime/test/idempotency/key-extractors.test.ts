import { expect } from 'chai';
import { bodyFieldKeyExtractor, headerKeyExtractor } from '../../src/idempotency/key-extractors.js';
import type { MiddlewareRequest } from '../../src/middleware/types.js';
import { httpEvent, lambdaContext } from '../fixtures/events.js';

function request(headers: Record<string, string>, body?: unknown): MiddlewareRequest<unknown> {
  return { event: httpEvent({ method: 'POST', headers }), lambdaContext: lambdaContext(), ctx: {}, body, internal: {} };
}

describe('key extractors', () => {
  it('headerKeyExtractor matches the header name case-insensitively and ignores blank values', () => {
    const extract = headerKeyExtractor('Idempotency-Key');
    expect(extract(request({ 'idempotency-key': 'abc' }))).to.equal('abc');
    expect(extract(request({ 'IDEMPOTENCY-KEY': ' abc ' }))).to.equal('abc');
    expect(extract(request({ 'idempotency-key': '  ' }))).to.equal(undefined);
    expect(extract(request({}))).to.equal(undefined);
    expect(extract.source).to.equal('the Idempotency-Key header');
  });

  it('bodyFieldKeyExtractor reads a top-level or dotted field, strings and numbers only', () => {
    expect(bodyFieldKeyExtractor('ref')(request({}, { ref: 'r-1' }))).to.equal('r-1');
    expect(bodyFieldKeyExtractor('order.id')(request({}, { order: { id: 42 } }))).to.equal('42');
    expect(bodyFieldKeyExtractor('ref')(request({}, { ref: { nested: true } }))).to.equal(undefined);
    expect(bodyFieldKeyExtractor('ref')(request({}, 'not an object'))).to.equal(undefined);
  });
});
