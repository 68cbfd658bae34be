import type { UnitAmount } from '../model.js';

/**
 * Exact money arithmetic on bigint: unit prices become integers of 10^-12 minor units, sums stay exact, and the one
 * rounding of a line (half up, away from zero) happens at the end. No float ever holds an amount.
 */

/** Decimals a unit price may have (`'0.000000000001'` of a cent at most). */
export const UNIT_AMOUNT_DECIMALS = 12;
const SCALE = 10n ** BigInt(UNIT_AMOUNT_DECIMALS);
const DECIMAL = /^(\d{1,15})(?:\.(\d{1,12}))?$/;

/** Why `value` is not a unit amount, or `undefined` when it is one. */
export function unitAmountProblem(value: unknown): string | undefined {
  if (typeof value === 'number') {
    return Number.isSafeInteger(value) && value >= 0 ? undefined : `expected a whole number of minor units >= 0 (or a decimal string such as '0.1' for fractions of one), got ${String(value)}`;
  }
  if (typeof value === 'string') {
    return DECIMAL.test(value) ? undefined : `expected a decimal string of minor units with at most ${UNIT_AMOUNT_DECIMALS} decimals (such as '0.1'), got ${JSON.stringify(value)}`;
  }
  return `expected a whole number of minor units or a decimal string, got ${typeof value}`;
}

/** A unit amount as an integer of 10^-12 minor units. */
export function scaledUnitAmount(value: UnitAmount): bigint {
  if (typeof value === 'number') return BigInt(value) * SCALE;
  const match = DECIMAL.exec(value);
  if (!match) throw new RangeError(`not a unit amount: ${JSON.stringify(value)}`);
  const fraction = (match[2] ?? '').padEnd(UNIT_AMOUNT_DECIMALS, '0');
  return BigInt(match[1]!) * SCALE + BigInt(fraction);
}

/** `numerator / denominator` rounded half up (away from zero for negatives); `denominator` > 0. */
export function divideRounded(numerator: bigint, denominator: bigint): bigint {
  const negative = numerator < 0n;
  const magnitude = negative ? -numerator : numerator;
  const rounded = (magnitude * 2n + denominator) / (denominator * 2n);
  return negative ? -rounded : rounded;
}

/** A scaled amount (10^-12 minor units) rounded to whole minor units. */
export function roundScaled(scaled: bigint): bigint {
  return divideRounded(scaled, SCALE);
}

/** A unit amount as the text an invoice line shows (`'0.1'`, `'2'`). */
export function formatUnitAmount(value: UnitAmount): string {
  return typeof value === 'number' ? String(value) : value.replace(/(\.\d*?)0+$/, '$1').replace(/\.$/, '');
}

/** A bigint of minor units as a safe JS number (amounts on invoices); throws past 2^53. */
export function toMinorUnits(value: bigint): number {
  if (value > BigInt(Number.MAX_SAFE_INTEGER) || value < BigInt(Number.MIN_SAFE_INTEGER)) throw new RangeError(`amount ${value} is beyond a safe integer`);
  return Number(value);
}
