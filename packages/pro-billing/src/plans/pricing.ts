import type { PriceTier } from '../model.js';
import { divideRounded, roundScaled, scaledUnitAmount } from './money.js';

/**
 * The amount of `quantity` units on graduated tiers (each unit at the price of the tier it falls in, plus a tier's
 * flat amount when any unit falls in it), exact, rounded once (half up) to whole minor units.
 */
export function graduatedAmount(tiers: readonly PriceTier[], quantity: bigint): bigint {
  let scaled = 0n;
  let below = 0n;
  for (const tier of tiers) {
    if (quantity <= below) break;
    const top = tier.upTo === 'inf' ? quantity : BigInt(tier.upTo);
    const units = (quantity < top ? quantity : top) - below;
    if (units <= 0n) continue;
    scaled += units * scaledUnitAmount(tier.unitAmount) + scaledUnitAmount(tier.flatAmount ?? 0);
    below = top;
  }
  return roundScaled(scaled);
}

/**
 * The part of `amount` (per whole period) due for `[from, to)` seconds into a period of `periodSeconds`:
 * `round(amount * to / period) - round(amount * from / period)`, rounding half up. Because each segment is the
 * difference of the same rounded running total, the segments of one price add up to exactly the rounded share of
 * the seconds they cover together: a plan held the whole period costs exactly its price, however often it was split.
 */
export function proratedAmount(amount: bigint, fromSecond: bigint, toSecond: bigint, periodSeconds: bigint): bigint {
  return divideRounded(amount * toSecond, periodSeconds) - divideRounded(amount * fromSecond, periodSeconds);
}
