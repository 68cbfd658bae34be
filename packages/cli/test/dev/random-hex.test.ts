import { expect } from 'chai';
import { randomHex } from '../../src/dev/server/random-hex.js';

describe('fw dev random ids from a pool', () => {
  it('gives lower-case hex of the asked length, never the same twice, across refills of the pool', () => {
    const seen = new Set<string>();
    // 12 bytes at a time does not divide the pool: draws straddle its end and refill it.
    for (let i = 0; i < 2000; i++) {
      const hex = randomHex(12);
      expect(hex).to.match(/^[0-9a-f]{24}$/);
      seen.add(hex);
    }
    expect(seen.size).to.equal(2000);
    expect(randomHex(4096)).to.match(/^[0-9a-f]{8192}$/);
  });

  it('refuses more bytes than the pool holds', () => {
    expect(() => randomHex(4097)).to.throw(RangeError, /at most 4096 bytes/);
  });

});
