import { expect } from 'chai';
import { AsyncLocalStorage } from 'node:async_hooks';
import { Database, setTransactionSettingsProvider, sql, type TransactionSettings } from '../src/index.js';
import { ENGINES, useEngine } from './support/engines.js';

const quiet = { warn: () => undefined };

for (const engine of ENGINES) {
  describe(`prepared statements (QueryOptions.prepare) on ${engine.name}`, () => {
    const server = useEngine(engine);
    const scope = new AsyncLocalStorage<TransactionSettings>();
    const opened: Database[] = [];
    const open = (maxConnections: number) => {
      const db = new Database({ connection: server().connection, logger: quiet, maxConnections });
      opened.push(db);
      return db;
    };
    before(() => setTransactionSettingsProvider(() => scope.getStore()));
    after(async () => {
      setTransactionSettingsProvider(undefined);
      await Promise.all(opened.map((db) => db.end()));
    });

    /** Prepared statements of the session whose text holds `marker`. */
    const preparedWith = async (db: Database, marker: string) =>
      Number((await db.one<{ n: string }>(sql`SELECT count(*) AS n FROM pg_prepared_statements WHERE statement LIKE ${`%${marker}%`} AND name LIKE 'fw\\_%'`)).n);

    it('parses a statement once per connection and runs it again by name', async () => {
      const db = open(1);
      for (let i = 0; i < 5; i++) expect((await db.one<{ v: number }>(sql`SELECT ${i}::int + 1 AS v /* marker-once */`, { prepare: true })).v).to.equal(i + 1);
      // One connection: one prepared statement for five runs (unprepared: none).
      expect(await preparedWith(db, 'marker-once')).to.equal(1);
      expect((await db.one<{ v: number }>(sql`SELECT 2::int AS v /* marker-plain */`)).v).to.equal(2);
      expect(await preparedWith(db, 'marker-plain')).to.equal(0);
    });

    it('reads the transaction settings of each run, not of the run that prepared it', async () => {
      const db = open(1);
      const tenant = () => db.one<{ t: string }>(sql`SELECT current_setting('app.tenant_id', true) AS t /* marker-settings */`, { prepare: true });
      expect((await scope.run({ 'app.tenant_id': 'acme' }, tenant)).t).to.equal('acme');
      expect((await scope.run({ 'app.tenant_id': 'globex' }, tenant)).t).to.equal('globex');
      expect(await preparedWith(db, 'marker-settings')).to.equal(1);
    });

    it('runs the same text from many connections and pools at once (PGlite serves them all from one session)', async () => {
      const pools = [open(3), open(3)];
      const runs = Array.from({ length: 24 }, (_, i) => {
        const run = () => pools[i % 2]!.one<{ v: number }>(sql`SELECT ${i}::int AS v /* marker-shared */`, { prepare: true });
        return i % 3 === 0 ? scope.run({ 'app.tenant_id': `t${i}` }, run) : run();
      });
      expect((await Promise.all(runs)).map((r) => r.v)).to.deep.equal(Array.from({ length: 24 }, (_, i) => i));
    });

    it('answers a statement that fails to parse with its own error every time, and the connection keeps working', async () => {
      const db = open(1);
      const broken = () => scope.run({ 'app.tenant_id': 'acme' }, () => db.query(sql`SELECT * FROM no_such_table_marker`, { prepare: true }));
      for (let i = 0; i < 2; i++) {
        const error = await broken().then(() => undefined, (e: unknown) => e as { code?: string });
        expect(error?.code, 'undefined table, not "prepared statement does not exist"').to.equal('42P01');
      }
      expect((await scope.run({ 'app.tenant_id': 'acme' }, () => db.one<{ v: number }>(sql`SELECT 1 AS v`, { prepare: true }))).v).to.equal(1);
    });
  });
}
