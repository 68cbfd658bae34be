import { expect } from 'chai';
import pg from 'pg';
import { Database, sql } from '../src/index.js';
import { parseTimestamptz, TIMESTAMPTZ_OID } from '../src/client/timestamp-parser.js';
import { ENGINES, useEngine } from './support/engines.js';

/** `pg`'s own parser of timestamptz (`postgres-date`): what `parseTimestamptz` must give for every text. */
const pgParse = pg.types.getTypeParser(TIMESTAMPTZ_OID, 'text') as (text: string) => unknown;

const same = (text: string) => {
  const ours = parseTimestamptz(text);
  const theirs = pgParse(text);
  const key = (v: unknown) => (v instanceof Date ? `date ${v.getTime()}` : `${typeof v} ${String(v)}`);
  expect(key(ours), text).to.equal(key(theirs));
};

describe('timestamptz parsing (parseTimestamptz gives what pg gives)', () => {
  it('reads every ISO form PostgreSQL writes as pg does: fractions of 0 to 6 digits, zones with minutes and seconds', () => {
    // A fixed-seed walk over dates, fractions and zones (no Math.random: a failure must reproduce).
    let seed = 7;
    const next = (n: number) => (seed = (seed * 1103515245 + 12345) % 2147483648) % n;
    const pad = (v: number, width = 2) => String(v).padStart(width, '0');
    const zones = ['+00', '-03', '+05:30', '-09:30', '+14', '-12', '+00:00', '+05:45', '-00:25:21', '+01:02:03'];
    for (let i = 0; i < 5000; i++) {
      const fraction = next(7);
      const text =
        `${pad(1000 + next(9000), 4)}-${pad(1 + next(12))}-${pad(1 + next(28))} ${pad(next(24))}:${pad(next(60))}:${pad(next(60))}` +
        `${fraction ? `.${pad(next(10 ** fraction), fraction)}` : ''}${zones[next(zones.length)]}`;
      same(text);
    }
  });

  it('leaves to pg what is not that form: BC, infinity, years outside 1000-9999, dates without time, malformed text', () => {
    for (const text of ['infinity', '-infinity', '0099-01-02 03:04:05+00', '0001-01-01 00:00:00+00 BC', '2026-11-24 01:02:03+00 BC', '12026-11-24 01:02:03+00', '2026-11-24', '2026-11-24 01:02:03', '2026-11-24 01:02:03.+00', '2026-11-24T01:02:03Z', '2026-11-24 01:02:03+0', '2026-11-24 01:02:03+00:0', 'garbage']) {
      same(text);
    }
  });
});

describe('timestamptz parser of the app', () => {
  it('is kept whether the app sets it after @framework/data loads or before (a module of the app evaluated first)', async () => {
    const asText = (text: string) => text;
    const builtIn = pg.types.getTypeParser(TIMESTAMPTZ_OID, 'text');
    pg.types.setTypeParser(TIMESTAMPTZ_OID, asText);
    try {
      const { databaseTypes: loadedBefore } = await import('../src/client/timestamp-parser.js');
      expect(loadedBefore.getTypeParser(TIMESTAMPTZ_OID, 'text'), 'set after the package loaded').to.equal(asText);
      // A fresh instance of the module, evaluated while the app's parser is in place.
      const { databaseTypes: loadedAfter } = await import(`../src/client/timestamp-parser.js?app-parser-first=${Date.now()}`);
      expect(loadedAfter.getTypeParser(TIMESTAMPTZ_OID, 'text'), 'set before the package loaded').to.equal(asText);
    } finally {
      pg.types.setTypeParser(TIMESTAMPTZ_OID, builtIn);
    }
  });
});

for (const engine of ENGINES) {
  describe(`timestamptz through Database on ${engine.name}`, () => {
    const server = useEngine(engine);

    it('answers the same Dates as a plain pg client, whatever the session time zone', async () => {
      const db = new Database({ connection: server().connection });
      // The pool reads timestamptz with parseTimestamptz (the comparison below is then not pg against itself).
      expect((await db.pool()).options.types?.getTypeParser(TIMESTAMPTZ_OID, 'text')).to.equal(parseTimestamptz);
      const plain = new pg.Client(server().connection);
      await plain.connect();
      try {
        const rows = `('2026-11-24 01:02:03.123456+00'::timestamptz), ('1999-12-31 23:59:59.999999-09:30'::timestamptz), ('infinity'::timestamptz), ('0044-03-15 12:00:00+00 BC'::timestamptz), (NULL::timestamptz)`;
        for (const zone of ['UTC', 'Asia/Kolkata', 'America/St_Johns']) {
          // One transaction each, so the session's time zone applies to the statement that follows.
          const ours = await db.transaction(async (tx) => {
            await tx.query(sql`SELECT set_config('TimeZone', ${zone}, true)`);
            return tx.many<{ t: unknown }>(sql`SELECT t FROM (VALUES (now()), ('2026-11-24 01:02:03.123456+00'::timestamptz), ('1999-12-31 23:59:59.999999-09:30'::timestamptz), ('infinity'::timestamptz), ('0044-03-15 12:00:00+00 BC'::timestamptz), (NULL::timestamptz)) AS v(t)`);
          });
          await plain.query(`SET TimeZone = '${zone}'`);
          const theirs = (await plain.query<{ t: unknown }>(`SELECT t FROM (VALUES ('${(ours[0]!.t as Date).toISOString()}'::timestamptz), ${rows}) AS v(t)`)).rows;
          const key = (v: unknown) => (v instanceof Date ? `date ${v.getTime()}` : `${typeof v} ${String(v)}`);
          expect(ours.map((r) => key(r.t)), zone).to.deep.equal(theirs.map((r) => key(r.t)));
          expect(ours[0]!.t).to.be.instanceOf(Date);
        }
      } finally {
        await plain.end();
        await db.end();
      }
    });
  });
}
