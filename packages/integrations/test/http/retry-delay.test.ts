import { expect } from 'chai';
import { backoffDelayMs, serverRequestedDelayMs } from '../../src/index.js';

describe('retry delays', () => {
  const now = Date.parse('2026-01-01T00:00:00Z');

  it('full jitter stays within [0, min(max, base * 2^(retry-1))]', () => {
    expect(backoffDelayMs(1, 100, 1000, () => 0)).to.equal(0);
    expect(backoffDelayMs(1, 100, 1000, () => 0.5)).to.equal(50);
    expect(backoffDelayMs(3, 100, 1000, () => 0.999)).to.equal(399);
    expect(backoffDelayMs(10, 100, 1000, () => 0.999)).to.equal(999);
  });

  it('reads Retry-After in seconds and as an HTTP date', () => {
    expect(serverRequestedDelayMs(new Headers({ 'retry-after': '3' }), now)).to.equal(3000);
    expect(serverRequestedDelayMs(new Headers({ 'retry-after': new Date(now + 5000).toUTCString() }), now)).to.equal(5000);
  });

  it('reads the IETF RateLimit header (both drafts) and RateLimit-Reset only when nothing remains', () => {
    expect(serverRequestedDelayMs(new Headers({ ratelimit: 'limit=100, remaining=0, reset=7' }), now)).to.equal(7000);
    expect(serverRequestedDelayMs(new Headers({ ratelimit: '"default";r=0;t=9' }), now)).to.equal(9000);
    expect(serverRequestedDelayMs(new Headers({ ratelimit: 'limit=100, remaining=5, reset=7' }), now)).to.equal(undefined);
    expect(serverRequestedDelayMs(new Headers({ 'ratelimit-remaining': '0', 'ratelimit-reset': '4' }), now)).to.equal(4000);
  });

  it('reads X-RateLimit-Reset as seconds to wait, or as epoch seconds (GitHub)', () => {
    expect(serverRequestedDelayMs(new Headers({ 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': '12' }), now)).to.equal(12_000);
    expect(serverRequestedDelayMs(new Headers({ 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(now / 1000 + 30) }), now)).to.equal(30_000);
    expect(serverRequestedDelayMs(new Headers({ 'x-ratelimit-remaining': '10', 'x-ratelimit-reset': '12' }), now)).to.equal(undefined);
    expect(serverRequestedDelayMs(new Headers({}), now)).to.equal(undefined);
  });
});
