import { expect } from 'chai';
import { plainJsonSizeBound } from '../../src/dev/functions/plain-json-value.js';

/** A result crosses the worker boundary as a clone only when JSON would not change it, and only within the limit. */
describe('plain JSON values (results cloned across the worker boundary)', () => {
  it('accepts what JSON keeps as is, with a bound at least the size of its JSON', () => {
    for (const value of [null, true, 'text ✓ \u0001', 12.5, [1, 'a', [null]], { statusCode: 200, headers: { a: 'b' }, body: '{"x":1}' }, Object.create(null) as object]) {
      const bound = plainJsonSizeBound(value, 6 * 1024 * 1024);
      expect(bound, JSON.stringify(value)).to.be.a('number');
      expect(bound).to.be.at.least(Buffer.byteLength(JSON.stringify(value)));
    }
  });

  it('refuses what JSON would change, and what may pass the limit', () => {
    class Point {
      x = 1;
    }
    const cycle: Record<string, unknown> = {};
    cycle.self = cycle;
    for (const value of [undefined, new Date(0), new Point(), { toJSON: () => 'x' }, { a: undefined }, [undefined], NaN, Infinity, -0, 1n, () => 1, Symbol('s'), cycle, new Map(), new Uint8Array(2)]) {
      expect(plainJsonSizeBound(value, 6 * 1024 * 1024), String(typeof value)).to.equal(undefined);
    }
    expect(plainJsonSizeBound('x'.repeat(100), 100)).to.equal(undefined);
  });
});
