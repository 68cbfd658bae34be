import { TestingError } from './errors.js';

const UNITS: Readonly<Record<string, number>> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 };

/** A span of time: milliseconds, or text such as `'500ms'`, `'30s'`, `'5m'`, `'2h'`, `'1d'`, `'1w'`, `'1d 2h'`. */
export type Duration = number | string;

/** Milliseconds of a `Duration`; throws FW_ERR_TESTING_BAD_OPTION naming the accepted forms. */
export function durationMs(duration: Duration): number {
  if (typeof duration === 'number') {
    if (Number.isFinite(duration) && duration >= 0) return duration;
  } else {
    const parts = duration.trim().split(/\s+/);
    let total = 0;
    let ok = parts.length > 0 && parts[0] !== '';
    for (const part of parts) {
      const m = /^(\d+(?:\.\d+)?)(ms|s|m|h|d|w)$/.exec(part);
      if (!m) {
        ok = false;
        break;
      }
      total += Number(m[1]) * UNITS[m[2]!]!;
    }
    if (ok) return total;
  }
  throw new TestingError('FW_ERR_TESTING_BAD_OPTION', `${JSON.stringify(duration)} is not a duration: give milliseconds (a number, 0 or more) or text such as '500ms', '30s', '5m', '2h', '1d', '1w' or '1d 2h'`);
}
