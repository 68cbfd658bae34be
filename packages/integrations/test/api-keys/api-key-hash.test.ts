import crypto from 'node:crypto';
import { syncBuiltinESMExports } from 'node:module';
import { expect } from 'chai';
import { hashApiKey, hashesEqual } from '../../src/index.js';

describe('API key hashes', () => {
  it('are HMAC-SHA-256 with the pepper: another pepper gives another hash', () => {
    const key = 'sk_test_abcdefghijkl_' + 'x'.repeat(43);
    expect(hashApiKey(key, 'pepper-one')).to.match(/^[0-9a-f]{64}$/).and.not.equal(hashApiKey(key, 'pepper-two'));
    expect(hashApiKey(key, 'pepper-one')).to.equal(crypto.createHmac('sha256', 'pepper-one').update(key).digest('hex'));
  });

  it('are compared with crypto.timingSafeEqual, and unequal lengths are simply unequal', () => {
    const original = crypto.timingSafeEqual;
    const calls: number[] = [];
    crypto.timingSafeEqual = (a: NodeJS.ArrayBufferView, b: NodeJS.ArrayBufferView) => {
      calls.push(a.byteLength);
      return original(a, b);
    };
    syncBuiltinESMExports();
    try {
      const hash = hashApiKey('k', 'p');
      expect(hashesEqual(hash, hash)).to.equal(true);
      expect(hashesEqual(hash, hashApiKey('k2', 'p'))).to.equal(false);
      expect(calls).to.deep.equal([32, 32]);
      expect(hashesEqual(hash, hash.slice(2))).to.equal(false);
      expect(hashesEqual('', '')).to.equal(false);
    } finally {
      crypto.timingSafeEqual = original;
      syncBuiltinESMExports();
    }
  });
});
