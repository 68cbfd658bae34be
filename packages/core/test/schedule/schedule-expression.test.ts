import { expect } from 'chai';
import { nextCronTime, parseCron, parseRate, parseSchedule, type CronSchedule } from '../../src/index.js';

/** The parsed cron of a valid expression (fails the test on an invalid one). */
function cron(expression: string): CronSchedule {
  const parsed = parseCron(expression);
  if (!parsed.ok || parsed.kind !== 'cron') throw new Error(`expected a valid cron: ${expression}: ${parsed.ok ? parsed.kind : parsed.reason}`);
  return parsed.cron;
}

function next(expression: string, after: string): string | undefined {
  return nextCronTime(cron(expression), new Date(after))?.toISOString();
}

function reason(result: ReturnType<typeof parseCron>): string {
  return result.ok ? '(valid)' : result.reason;
}

describe('schedule expressions', () => {
  describe('cron (six fields, UTC)', () => {
    it('normalizes a valid expression into the scheduler form', () => {
      expect(parseSchedule({ cron: ' 0  12 * * ? * ' })).to.include({ ok: true, kind: 'cron', expression: 'cron(0 12 * * ? *)' });
    });

    it('rejects five or seven fields', () => {
      expect(reason(parseCron('0 12 * * ?'))).to.match(/^expected six fields .* got 5 in "0 12 \* \* \?"$/);
      expect(reason(parseCron('0 0 12 * * ? *'))).to.match(/got 7/);
      expect(reason(parseCron(''))).to.match(/got 1/);
    });

    it('requires "?" in exactly one of day-of-month and day-of-week', () => {
      expect(reason(parseCron('0 12 * * * *'))).to.equal('exactly one of day-of-month and day-of-week must be "?" (got "*" and "*")');
      expect(reason(parseCron('0 12 ? * ? *'))).to.match(/exactly one of day-of-month and day-of-week/);
      expect(reason(parseCron('? 12 * * ? *'))).to.equal('"?" is only allowed in day-of-month and day-of-week, not in minutes');
      expect(parseCron('0 12 ? * MON *').ok).to.equal(true);
    });

    it('rejects values outside a field, backwards ranges and bad steps, naming the field', () => {
      expect(reason(parseCron('60 12 * * ? *'))).to.equal('minutes value "60" is outside 0-59 in "60 12 * * ? *"');
      expect(reason(parseCron('0 24 * * ? *'))).to.match(/^hours value "24" is outside 0-23/);
      expect(reason(parseCron('0 12 * 13 ? *'))).to.match(/^month value "13"/);
      expect(reason(parseCron('0 12 ? * 8 *'))).to.match(/^day-of-week value "8" is outside 1-7/);
      expect(reason(parseCron('0 12 * * ? 1969'))).to.match(/^year value "1969"/);
      expect(reason(parseCron('5-1 12 * * ? *'))).to.match(/range "5-1" goes backwards/);
      expect(reason(parseCron('0/0 12 * * ? *'))).to.match(/step "0" must be a positive integer/);
      expect(reason(parseCron('0,,5 12 * * ? *'))).to.match(/empty list item/);
      expect(reason(parseCron('0 12 * FOO ? *'))).to.match(/month value "FOO"/);
    });

    it('accepts names, lists, ranges, steps, L, W and #', () => {
      for (const expression of ['0/15 * * * ? *', '0 9 ? * MON-FRI *', '0 0 L * ? *', '0 0 15W * ? *', '0 10 ? * 6#3 *', '0 10 ? * 5L *', '0 8 1,15 JAN-MAR ? 2026-2030', '*/5 * * * ? *']) {
        expect(parseCron(expression).ok, expression).to.equal(true);
      }
    });
  });

  describe('rate', () => {
    it('accepts minute(s), hour(s) and day(s) with the number agreeing', () => {
      expect(parseRate('1 minute')).to.include({ ok: true, expression: 'rate(1 minute)', rateMs: 60_000 });
      expect(parseRate('5 minutes')).to.include({ ok: true, expression: 'rate(5 minutes)', rateMs: 300_000 });
      expect(parseRate('1 hour')).to.include({ rateMs: 3_600_000 });
      expect(parseRate('2 days')).to.include({ rateMs: 172_800_000 });
      expect(parseSchedule({ rate: '12 hours' })).to.include({ ok: true, kind: 'rate', expression: 'rate(12 hours)' });
    });

    it('rejects a plural after 1, a singular after more, zero and other units', () => {
      expect(reason(parseRate('1 minutes'))).to.equal('"1 minutes" must use the singular unit: "1 minute"');
      expect(reason(parseRate('5 minute'))).to.equal('"5 minute" must use the plural unit: "5 minutes"');
      expect(reason(parseRate('0 minutes'))).to.match(/^expected "<positive integer> <minute\(s\)\|hour\(s\)\|day\(s\)>"/);
      expect(reason(parseRate('1 week'))).to.match(/got "1 week"/);
      expect(reason(parseRate('five minutes'))).to.match(/got "five minutes"/);
    });
  });

  describe('nextCronTime (UTC, strictly after)', () => {
    it('fires at noon every day', () => {
      expect(next('0 12 * * ? *', '2026-01-01T11:59:30Z')).to.equal('2026-01-01T12:00:00.000Z');
      expect(next('0 12 * * ? *', '2026-01-01T12:00:00Z')).to.equal('2026-01-02T12:00:00.000Z');
      expect(next('0 12 * * ? *', '2026-12-31T13:00:00Z')).to.equal('2027-01-01T12:00:00.000Z');
    });

    it('steps minutes', () => {
      expect(next('0/15 * * * ? *', '2026-03-10T10:07:00Z')).to.equal('2026-03-10T10:15:00.000Z');
      expect(next('0/15 * * * ? *', '2026-03-10T23:50:00Z')).to.equal('2026-03-11T00:00:00.000Z');
    });

    it('skips to Monday for weekdays only (Saturday 2026-11-21)', () => {
      expect(next('0 9 ? * MON-FRI *', '2026-11-21T08:00:00Z')).to.equal('2026-11-23T09:00:00.000Z');
      expect(next('0 9 ? * 2-6 *', '2026-11-21T08:00:00Z')).to.equal('2026-11-23T09:00:00.000Z');
    });

    it('L: the last day of the month, leap years included', () => {
      expect(next('0 0 L * ? *', '2024-02-10T00:00:00Z')).to.equal('2024-02-29T00:00:00.000Z');
      expect(next('0 0 L * ? *', '2026-02-10T00:00:00Z')).to.equal('2026-02-28T00:00:00.000Z');
      expect(next('0 0 L * ? *', '2026-04-30T00:00:00Z')).to.equal('2026-05-31T00:00:00.000Z');
    });

    it('W: the weekday nearest to a day, without leaving the month', () => {
      // 2026-11-15 is a Sunday: the nearest weekday is Monday the 16th
      expect(next('0 0 15W * ? *', '2026-11-01T00:00:00Z')).to.equal('2026-11-16T00:00:00.000Z');
      // 2026-08-01 is a Saturday: 1W moves forward to Monday the 3rd, not back into July
      expect(next('0 0 1W * ? *', '2026-07-15T00:00:00Z')).to.equal('2026-08-03T00:00:00.000Z');
      // 2026-08-15 is a Saturday: the nearest weekday is Friday the 14th
      expect(next('0 0 15W * ? *', '2026-08-01T00:00:00Z')).to.equal('2026-08-14T00:00:00.000Z');
    });

    it('#: the nth weekday of the month, and 5L: the last Thursday', () => {
      // Fridays of November 2026: 6, 13, 20, 27
      expect(next('0 10 ? * 6#3 *', '2026-11-01T00:00:00Z')).to.equal('2026-11-20T10:00:00.000Z');
      expect(next('0 10 ? * FRI#1 *', '2026-11-07T00:00:00Z')).to.equal('2026-12-04T10:00:00.000Z');
      // Thursdays of November 2026: 5, 12, 19, 26
      expect(next('0 10 ? * 5L *', '2026-11-01T00:00:00Z')).to.equal('2026-11-26T10:00:00.000Z');
    });

    it('finds a 29 February years ahead, and nothing after the last year', () => {
      expect(next('0 0 29 2 ? *', '2025-03-01T00:00:00Z')).to.equal('2028-02-29T00:00:00.000Z');
      expect(next('0 0 1 1 ? 2025', '2025-06-01T00:00:00Z')).to.equal(undefined);
      expect(next('30 6 1 JAN ? 2027-2030', '2025-06-01T00:00:00Z')).to.equal('2027-01-01T06:30:00.000Z');
    });
  });
});
