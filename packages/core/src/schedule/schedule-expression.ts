/**
 * Schedules in the cloud scheduler's syntax, parsed once here so the local scheduler fires exactly what the cloud
 * would: `cron(<minutes> <hours> <day-of-month> <month> <day-of-week> <year>)` in UTC, or `rate(<n> <unit>)`.
 *
 * Cron fields: `*`, `?` (day fields only), lists `a,b`, ranges `a-b`, steps `a/n` or `* /n`, month names JAN-DEC,
 * weekday names SUN-SAT (1 = Sunday), `L` (last day of month / `5L` last Thursday), `15W` (nearest weekday),
 * `6#3` (third Friday). Exactly one of day-of-month and day-of-week must be `?`.
 */

export type ScheduleSpec = { readonly cron: string; readonly rate?: undefined } | { readonly rate: string; readonly cron?: undefined };

/** A parse result: the normalized expression, or the reason it is invalid. */
export type ParsedSchedule =
  | { readonly ok: true; readonly kind: 'cron'; readonly expression: string; readonly cron: CronSchedule }
  | { readonly ok: true; readonly kind: 'rate'; readonly expression: string; readonly rateMs: number }
  | { readonly ok: false; readonly reason: string };

const RATE = /^([1-9][0-9]*) (minute|minutes|hour|hours|day|days)$/;
const UNIT_MS = { minute: 60_000, hour: 3_600_000, day: 86_400_000 } as const;

export function parseRate(rate: string): ParsedSchedule {
  const m = RATE.exec(rate.trim());
  if (!m) return { ok: false, reason: `expected "<positive integer> <minute(s)|hour(s)|day(s)>" such as "5 minutes", got ${JSON.stringify(rate)}` };
  const n = Number(m[1]);
  const unit = m[2]!;
  const singular = !unit.endsWith('s');
  if (n === 1 && !singular) return { ok: false, reason: `"1 ${unit}" must use the singular unit: "1 ${unit.slice(0, -1)}"` };
  if (n !== 1 && singular) return { ok: false, reason: `"${n} ${unit}" must use the plural unit: "${n} ${unit}s"` };
  const base = unit.replace(/s$/, '') as keyof typeof UNIT_MS;
  return { ok: true, kind: 'rate', expression: `rate(${n} ${unit})`, rateMs: n * UNIT_MS[base] };
}

export function parseSchedule(spec: ScheduleSpec): ParsedSchedule {
  return spec.cron !== undefined ? parseCron(spec.cron) : parseRate(spec.rate);
}

interface FieldSpec {
  readonly name: string;
  readonly min: number;
  readonly max: number;
  readonly names?: readonly string[];
}
const FIELDS: readonly FieldSpec[] = [
  { name: 'minutes', min: 0, max: 59 },
  { name: 'hours', min: 0, max: 23 },
  { name: 'day-of-month', min: 1, max: 31 },
  { name: 'month', min: 1, max: 12, names: ['JAN', 'FEB', 'MAR', 'APR', 'MAY', 'JUN', 'JUL', 'AUG', 'SEP', 'OCT', 'NOV', 'DEC'] },
  { name: 'day-of-week', min: 1, max: 7, names: ['SUN', 'MON', 'TUE', 'WED', 'THU', 'FRI', 'SAT'] },
  { name: 'year', min: 1970, max: 2199 },
];

/** A parsed cron: plain value sets plus the special day rules. */
export interface CronSchedule {
  readonly minutes: ReadonlySet<number>;
  readonly hours: ReadonlySet<number>;
  readonly months: ReadonlySet<number>;
  readonly years: ReadonlySet<number>;
  readonly dayOfMonth: DayRule;
  readonly dayOfWeek: DayRule;
}

type DayRule =
  | { readonly kind: 'any' }
  | { readonly kind: 'set'; readonly values: ReadonlySet<number> }
  | { readonly kind: 'last-day' }
  | { readonly kind: 'nearest-weekday'; readonly day: number }
  | { readonly kind: 'last-weekday-of-month'; readonly weekday: number }
  | { readonly kind: 'nth-weekday'; readonly weekday: number; readonly nth: number };

class CronSyntaxError extends Error {}

function parseValue(token: string, field: FieldSpec): number {
  const upper = token.toUpperCase();
  const named = field.names?.indexOf(upper) ?? -1;
  const value = named >= 0 ? named + field.min : /^\d+$/.test(token) ? Number(token) : NaN;
  if (!Number.isInteger(value) || value < field.min || value > field.max) {
    throw new CronSyntaxError(`${field.name} value ${JSON.stringify(token)} is outside ${field.min}-${field.max}`);
  }
  return value;
}

function parseSet(text: string, field: FieldSpec): Set<number> {
  const values = new Set<number>();
  for (const part of text.split(',')) {
    const [range, stepText] = part.split('/');
    if (range === undefined || range === '') throw new CronSyntaxError(`${field.name} has an empty list item`);
    const step = stepText === undefined ? 1 : Number(stepText);
    if (!Number.isInteger(step) || step < 1) throw new CronSyntaxError(`${field.name} step ${JSON.stringify(stepText)} must be a positive integer`);
    let from: number;
    let to: number;
    if (range === '*') {
      [from, to] = [field.min, field.max];
    } else if (range.includes('-')) {
      const [a, b] = range.split('-');
      from = parseValue(a ?? '', field);
      to = parseValue(b ?? '', field);
      if (to < from) throw new CronSyntaxError(`${field.name} range ${JSON.stringify(range)} goes backwards`);
    } else {
      from = parseValue(range, field);
      to = stepText === undefined ? from : field.max;
    }
    for (let v = from; v <= to; v += step) values.add(v);
  }
  return values;
}

function parseDayOfMonth(text: string, field: FieldSpec): DayRule {
  if (text === '?') return { kind: 'any' };
  if (text === 'L') return { kind: 'last-day' };
  const w = /^(\d+)W$/.exec(text);
  if (w) return { kind: 'nearest-weekday', day: parseValue(w[1]!, field) };
  return { kind: 'set', values: parseSet(text, field) };
}

function parseDayOfWeek(text: string, field: FieldSpec): DayRule {
  if (text === '?') return { kind: 'any' };
  const last = /^([A-Za-z0-9]+)L$/.exec(text);
  if (last) return { kind: 'last-weekday-of-month', weekday: parseValue(last[1]!, field) };
  const nth = /^([A-Za-z0-9]+)#([1-5])$/.exec(text);
  if (nth) return { kind: 'nth-weekday', weekday: parseValue(nth[1]!, field), nth: Number(nth[2]) };
  if (text === 'L') return { kind: 'set', values: new Set([7]) };
  return { kind: 'set', values: parseSet(text, field) };
}

export function parseCron(expression: string): ParsedSchedule {
  const fields = expression.trim().split(/\s+/);
  if (fields.length !== 6) {
    return {
      ok: false,
      reason: `expected six fields "<minutes> <hours> <day-of-month> <month> <day-of-week> <year>" (UTC) such as "0 12 * * ? *", got ${fields.length} in ${JSON.stringify(expression)}`,
    };
  }
  const [min, hour, dom, month, dow, year] = fields as [string, string, string, string, string, string];
  if ((dom === '?') === (dow === '?')) {
    return { ok: false, reason: `exactly one of day-of-month and day-of-week must be "?" (got ${JSON.stringify(dom)} and ${JSON.stringify(dow)})` };
  }
  for (const [text, spec] of [[min, FIELDS[0]], [hour, FIELDS[1]], [month, FIELDS[3]], [year, FIELDS[5]]] as const) {
    if (text === '?') return { ok: false, reason: `"?" is only allowed in day-of-month and day-of-week, not in ${spec!.name}` };
  }
  try {
    const cron: CronSchedule = {
      minutes: parseSet(min, FIELDS[0]!),
      hours: parseSet(hour, FIELDS[1]!),
      dayOfMonth: parseDayOfMonth(dom, FIELDS[2]!),
      months: parseSet(month, FIELDS[3]!),
      dayOfWeek: parseDayOfWeek(dow, FIELDS[4]!),
      years: parseSet(year, FIELDS[5]!),
    };
    return { ok: true, kind: 'cron', expression: `cron(${fields.join(' ')})`, cron };
  } catch (error) {
    if (error instanceof CronSyntaxError) return { ok: false, reason: `${error.message} in ${JSON.stringify(expression)}` };
    throw error;
  }
}

function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

function dayMatches(cron: CronSchedule, year: number, month: number, day: number): boolean {
  const weekday = new Date(Date.UTC(year, month - 1, day)).getUTCDay() + 1; // 1 = Sunday
  const last = daysInMonth(year, month);
  const rule = cron.dayOfMonth.kind !== 'any' ? cron.dayOfMonth : cron.dayOfWeek;
  switch (rule.kind) {
    case 'any':
      return true;
    case 'set':
      return rule.values.has(rule === cron.dayOfMonth ? day : weekday);
    case 'last-day':
      return day === last;
    case 'nearest-weekday': {
      const target = Math.min(rule.day, last);
      const targetWeekday = new Date(Date.UTC(year, month - 1, target)).getUTCDay();
      let nearest = target;
      if (targetWeekday === 6) nearest = target === 1 ? 3 : target - 1; // Saturday
      if (targetWeekday === 0) nearest = target === last ? target - 2 : target + 1; // Sunday
      return day === nearest;
    }
    case 'last-weekday-of-month':
      return weekday === rule.weekday && day + 7 > last;
    case 'nth-weekday':
      return weekday === rule.weekday && Math.ceil(day / 7) === rule.nth;
  }
}

/** The first time strictly after `after` (whole minutes, UTC) at which the cron fires, or undefined if never again. */
export function nextCronTime(cron: CronSchedule, after: Date): Date | undefined {
  const start = new Date(Math.floor(after.getTime() / 60_000) * 60_000 + 60_000);
  const hours = [...cron.hours].sort((a, b) => a - b);
  const minutes = [...cron.minutes].sort((a, b) => a - b);
  const maxYear = Math.max(...cron.years);
  for (let d = new Date(Date.UTC(start.getUTCFullYear(), start.getUTCMonth(), start.getUTCDate())); d.getUTCFullYear() <= maxYear; d = new Date(d.getTime() + 86_400_000)) {
    const year = d.getUTCFullYear();
    const month = d.getUTCMonth() + 1;
    if (!cron.years.has(year)) {
      d = new Date(Date.UTC(year + 1, 0, 1) - 86_400_000);
      continue;
    }
    if (!cron.months.has(month)) {
      d = new Date(Date.UTC(year, month, 1) - 86_400_000);
      continue;
    }
    if (!dayMatches(cron, year, month, d.getUTCDate())) continue;
    for (const h of hours) {
      for (const m of minutes) {
        const candidate = new Date(d.getTime() + h * 3_600_000 + m * 60_000);
        if (candidate >= start) return candidate;
      }
    }
  }
  return undefined;
}
