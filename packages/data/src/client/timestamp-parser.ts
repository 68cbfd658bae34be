import pg from 'pg';

/** PostgreSQL's type id of `timestamptz` (`timestamp with time zone`). */
export const TIMESTAMPTZ_OID = 1184;

const ZERO = 48;

/** The digits of `text` from `start` to `end` as a number, or -1 when one of them is not a digit. */
function digits(text: string, start: number, end: number): number {
  let value = 0;
  for (let i = start; i < end; i++) {
    const d = text.charCodeAt(i) - ZERO;
    if (d < 0 || d > 9) return -1;
    value = value * 10 + d;
  }
  return value;
}

/**
 * A `timestamptz` as PostgreSQL writes it with `DateStyle` ISO (`2026-11-24 01:45:14.123456+00`, `... -03:30`), read
 * without the regular expressions of `pg`'s own parser (`postgres-date`), which took about a tenth of a list route's
 * CPU on the function's side (20 rows, two timestamps each). Gives exactly what that parser gives (the same `Date`,
 * fractions of a millisecond dropped the same way); anything else (a year before 1000 or after 9999, BC, `infinity`,
 * another DateStyle) is left to it.
 */
export function parseTimestamptz(text: string): Date | number | null {
  const fast = fastTimestamptz(text);
  return fast ?? (pgTimestamptz(text) as Date | number | null);
}

const pgTimestamptz = pg.types.getTypeParser(TIMESTAMPTZ_OID, 'text');

/**
 * Whether the parser in place when this module loaded is pg's own: `pg-types` reads `date`, `timestamp` and
 * `timestamptz` with one function, which gives the `Date` `fastTimestamptz` gives. An app may have set its own before
 * (a module of its evaluated before this package: strings instead of Dates, say); that one is never replaced.
 */
const pgTimestamptzIsBuiltIn = ((): boolean => {
  if (pgTimestamptz !== pg.types.getTypeParser(1114, 'text') || pgTimestamptz !== pg.types.getTypeParser(1082, 'text')) return false;
  const sample = '2026-11-24 01:45:14.123456-03:30';
  const theirs = (pgTimestamptz as (text: string) => unknown)(sample);
  return theirs instanceof Date && theirs.getTime() === fastTimestamptz(sample)?.getTime();
})();

function fastTimestamptz(text: string): Date | undefined {
  // YYYY-MM-DD HH:MM:SS, then an optional fraction, then the zone: +HH, +HH:MM or +HH:MM:SS.
  const n = text.length;
  if (n < 22 || text.charCodeAt(4) !== 45 || text.charCodeAt(7) !== 45 || text.charCodeAt(10) !== 32 || text.charCodeAt(13) !== 58 || text.charCodeAt(16) !== 58) return undefined;
  const year = digits(text, 0, 4);
  const month = digits(text, 5, 7);
  const day = digits(text, 8, 10);
  const hour = digits(text, 11, 13);
  const minute = digits(text, 14, 16);
  const second = digits(text, 17, 19);
  if (year < 1000 || month < 0 || day < 0 || hour < 0 || minute < 0 || second < 0) return undefined;
  let i = 19;
  let ms = 0;
  if (text.charCodeAt(i) === 46) {
    const start = i;
    i++;
    while (i < n && text.charCodeAt(i) >= ZERO && text.charCodeAt(i) <= ZERO + 9) i++;
    if (i === start + 1) return undefined;
    // As `postgres-date`: 1000 × the fraction, its sub-millisecond part dropped by `Date.UTC`.
    ms = 1000 * parseFloat(text.slice(start, i));
  }
  const sign = text.charCodeAt(i);
  if (sign !== 43 && sign !== 45) return undefined;
  const zoneHours = digits(text, i + 1, i + 3);
  if (zoneHours < 0 || i + 3 > n) return undefined;
  i += 3;
  let zoneMinutes = 0;
  let zoneSeconds = 0;
  if (i < n) {
    if (text.charCodeAt(i) !== 58 || i + 3 > n) return undefined;
    zoneMinutes = digits(text, i + 1, i + 3);
    i += 3;
    if (i < n) {
      if (text.charCodeAt(i) !== 58 || i + 3 !== n) return undefined;
      zoneSeconds = digits(text, i + 1, i + 3);
      i += 3;
    }
    if (zoneMinutes < 0 || zoneSeconds < 0) return undefined;
  }
  if (i !== n) return undefined;
  const offsetMs = (sign === 45 ? -1 : 1) * (zoneHours * 3600 + zoneMinutes * 60 + zoneSeconds) * 1000;
  return new Date(Date.UTC(year, month - 1, day, hour, minute, second, ms) - offsetMs);
}

/**
 * The type parsers of the pools `Database` creates: `pg`'s own (including any the app set with
 * `pg.types.setTypeParser`, before or after this package loaded), with `timestamptz` read by `parseTimestamptz`
 * unless the app replaced its parser.
 */
export const databaseTypes = {
  getTypeParser(oid: number, format?: string): (value: string) => unknown {
    const parser = pg.types.getTypeParser(oid, format as 'text');
    if (oid === TIMESTAMPTZ_OID && (format === undefined || format === 'text') && parser === pgTimestamptz && pgTimestamptzIsBuiltIn) return parseTimestamptz;
    return parser as (value: string) => unknown;
  },
};
