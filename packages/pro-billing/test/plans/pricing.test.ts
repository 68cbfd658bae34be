import { expect } from 'chai';
import fc from 'fast-check';
import { divideRounded, graduatedAmount, proratedAmount, scaledUnitAmount } from '../../src/index.js';

describe('pricing arithmetic (integer minor units)', () => {
  it('reads decimal unit amounts exactly and rounds half up', () => {
    expect(scaledUnitAmount('0.1')).to.equal(100_000_000_000n);
    expect(scaledUnitAmount(25)).to.equal(25_000_000_000_000n);
    expect(divideRounded(5n, 10n)).to.equal(1n);
    expect(divideRounded(4n, 10n)).to.equal(0n);
    expect(divideRounded(-5n, 10n)).to.equal(-1n);
  });

  it('prices graduated tiers: each unit at the price of its tier, flat amounts once per tier reached', () => {
    const tiers = [{ upTo: 10, unitAmount: 0 }, { upTo: 100, unitAmount: 25 }, { upTo: 'inf' as const, unitAmount: '12.5', flatAmount: 100 }];
    expect(graduatedAmount(tiers, 0n)).to.equal(0n);
    expect(graduatedAmount(tiers, 10n)).to.equal(0n);
    expect(graduatedAmount(tiers, 11n)).to.equal(25n);
    expect(graduatedAmount(tiers, 100n)).to.equal(90n * 25n);
    expect(graduatedAmount(tiers, 101n)).to.equal(90n * 25n + 100n + 13n); // 12.5 rounds half up once, on the line
    expect(graduatedAmount([{ upTo: 'inf', unitAmount: '0.1' }], 10_005n)).to.equal(1001n); // 1000.5 -> 1001
  });

  it('a graduated total equals the sum of units times tier prices, exactly (random tiers and quantities)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.integer({ min: 1, max: 1000 }), fc.integer({ min: 0, max: 10_000 }), fc.integer({ min: 0, max: 999 })), { minLength: 1, maxLength: 4 }),
        fc.bigInt({ min: 0n, max: 1_000_000n }),
        (steps, quantity) => {
          let top = 0;
          const tiers = steps.map(([width, whole, thousandths], i) => {
            top += width;
            return { upTo: i === steps.length - 1 ? ('inf' as const) : top, unitAmount: `${whole}.${String(thousandths).padStart(3, '0')}` };
          });
          // reference: thousandths of a minor unit, unit by unit through the tiers
          let thousandthsTotal = 0n;
          let below = 0n;
          for (const t of tiers) {
            const upper = t.upTo === 'inf' ? quantity : BigInt(t.upTo);
            const units = (quantity < upper ? quantity : upper) - below;
            if (units > 0n) thousandthsTotal += units * BigInt(t.unitAmount.replace('.', ''));
            below = upper;
            if (quantity <= below) break;
          }
          expect(graduatedAmount(tiers, quantity)).to.equal(divideRounded(thousandthsTotal, 1000n));
        },
      ),
    );
  });

  it('prorated segments of one price add up to exactly its share, however the period is split', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 10_000_000n }), fc.integer({ min: 1, max: 31 * 86_400 }), fc.uniqueArray(fc.integer({ min: 1, max: 31 * 86_400 }), { maxLength: 20 }), (amount, period, cuts) => {
        const total = BigInt(period);
        const points = [0n, ...cuts.filter((c) => c < period).map(BigInt).sort((a, b) => (a < b ? -1 : 1)), total];
        let sum = 0n;
        for (let i = 1; i < points.length; i++) sum += proratedAmount(amount, points[i - 1]!, points[i]!, total);
        expect(sum).to.equal(amount);
      }),
    );
  });
});
