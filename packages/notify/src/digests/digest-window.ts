import { InvalidDigestWindowError } from '../errors.js';

const DAY_MS = 24 * 3600 * 1000;
const UNITS: Readonly<Record<string, number>> = { m: 60_000, h: 3_600_000, d: DAY_MS };

/** A digest window: `'15m'`, `'1h'`, `'1d'`, `'7d'`; windows start at multiples of the length since 1970-01-01 UTC. */
export type DigestWindow = `${number}${'m' | 'h' | 'd'}`;

/** The window length in ms; it must divide a day (or be whole days) so windows start at the same hours every day. */
export function windowMs(window: DigestWindow | string): number {
  const match = /^(\d{1,4})([mhd])$/.exec(String(window));
  if (!match) throw new InvalidDigestWindowError(`${JSON.stringify(window)} is not <number><m|h|d>`);
  const ms = Number(match[1]) * UNITS[match[2]!]!;
  if (ms === 0) throw new InvalidDigestWindowError('the window is empty');
  if (ms < DAY_MS ? DAY_MS % ms !== 0 : ms % DAY_MS !== 0) throw new InvalidDigestWindowError(`${window} neither divides a day nor is a whole number of days`);
  return ms;
}

/** The last window that ended at or before `now`: `[start, end)`. */
export function lastCompleteWindow(window: DigestWindow | string, now: Date): { readonly start: Date; readonly end: Date } {
  const ms = windowMs(window);
  const end = Math.floor(now.getTime() / ms) * ms;
  return { start: new Date(end - ms), end: new Date(end) };
}
