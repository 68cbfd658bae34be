import { expect } from 'chai';
import { AsyncLocalStorage } from 'node:async_hooks';
import { Database, setTransactionSettingsProvider, sql, SqlUsageError, type TransactionSettings } from '../src/index.js';
import { ENGINES, useEngine } from './support/engines.js';

const quiet = { warn: () => undefined };

for (const engine of ENGINES) {
  describe(`transaction settings on ${engine.name}`, () => {
    const server = useEngine(engine);
    // The scope a provider reads from, as the tenancy package keeps the request's tenant.
    const scope = new AsyncLocalStorage<TransactionSettings>();
    let db: Database;

    before(() => {
      // One connection: whatever one statement leaves on it, the next one sees.
      db = new Database({ connection: server().connection, logger: quiet, maxConnections: 1 });
      setTransactionSettingsProvider(() => scope.getStore());
    });
    after(async () => {
      setTransactionSettingsProvider(undefined);
      await db?.end();
    });

    const setting = async (runner: Pick<Database, 'one'> = db) =>
      (await runner.one<{ value: string | null }>(sql`SELECT current_setting('app.tenant_id', true) AS value`)).value;

    it('sets the settings for a single statement, and the next statement on the same connection no longer has them', async () => {
      expect(await scope.run({ 'app.tenant_id': 'acme' }, () => setting())).to.equal('acme');
      // Outside any scope: empty (the setting exists on the session once used, but only as the transaction's).
      expect(await setting()).to.be.oneOf(['', null]);
    });

    it('sets them for a whole transaction, and forgets them at its end, also after a rollback', async () => {
      const inside = await scope.run({ 'app.tenant_id': 'globex' }, () =>
        db.transaction(async (tx) => {
          await tx.query(sql`SELECT 1`);
          return setting(tx);
        }),
      );
      expect(inside).to.equal('globex');
      const failed = await scope
        .run({ 'app.tenant_id': 'initech' }, () =>
          db.transaction(async () => {
            throw new Error('stop');
          }),
        )
        .catch((error: Error) => error);
      expect(failed).to.be.instanceOf(Error);
      expect(await setting()).to.be.oneOf(['', null]);
    });

    it('runs a statement that fails inside its own transaction and rolls it back', async () => {
      await db.query(sql`CREATE TABLE IF NOT EXISTS settings_probe (id int PRIMARY KEY)`);
      await scope.run({ 'app.tenant_id': 'acme' }, async () => {
        await db.query(sql`INSERT INTO settings_probe VALUES (1)`);
        const error = await db.query(sql`INSERT INTO settings_probe VALUES (1)`).catch((e: unknown) => e);
        // Mapped as outside a transaction: a unique violation is a 409.
        expect((error as { status?: number }).status).to.equal(409);
      });
      // The connection is usable and not left inside a transaction.
      expect(await setting()).to.be.oneOf(['', null]);
      expect((await db.one<{ n: number }>(sql`SELECT count(*)::int AS n FROM settings_probe`)).n).to.equal(1);
    });

    it('sends a statement and its settings in one round trip: committed when it succeeds, rolled back when it fails', async () => {
      await db.query(sql`CREATE TABLE IF NOT EXISTS settings_writes (tenant text)`);
      // The one pooled connection: count the server's ReadyForQuery messages, one per round trip.
      const pool = await db.pool();
      const client = await pool.connect();
      let roundTrips = 0;
      const count = () => void roundTrips++;
      client.connection.on('readyForQuery', count);
      client.release();
      try {
        roundTrips = 0;
        await scope.run({ 'app.tenant_id': 'acme' }, () => db.query(sql`INSERT INTO settings_writes VALUES (current_setting('app.tenant_id', true))`));
        expect(roundTrips).to.equal(1);
        roundTrips = 0;
        expect(await scope.run({ 'app.tenant_id': 'acme' }, () => setting())).to.equal('acme');
        expect(roundTrips).to.equal(1);
      } finally {
        client.connection.removeListener('readyForQuery', count);
      }
      // The write is committed (no COMMIT was sent) and the setting did not outlive it.
      expect(await db.many(sql`SELECT tenant FROM settings_writes`)).to.deep.equal([{ tenant: 'acme' }]);
      expect(await setting()).to.be.oneOf(['', null]);

      // A failed statement: the implicit transaction is rolled back at the same Sync, its settings with it, and the
      // connection (healthy) goes back to the pool rather than being replaced.
      let connects = 0;
      const counted = () => void connects++;
      pool.on('connect', counted);
      await db.query(sql`CREATE TABLE IF NOT EXISTS settings_checked (tenant text CHECK (tenant <> 'bad'))`);
      const error = await scope
        .run({ 'app.tenant_id': 'bad' }, () => db.query(sql`INSERT INTO settings_checked VALUES ('fine'), (current_setting('app.tenant_id', true))`))
        .catch((e: unknown) => e);
      expect((error as { status?: number }).status).to.equal(422);
      expect(await db.many(sql`SELECT tenant FROM settings_checked`)).to.deep.equal([]);
      expect(await setting()).to.be.oneOf(['', null]);
      pool.removeListener('connect', counted);
      expect(connects).to.equal(0);
    });

    it('sends values as literals, so quotes in a value stay a value', async () => {
      const value = "x'); SELECT set_config('app.tenant_id', 'evil', false); --";
      expect(await scope.run({ 'app.tenant_id': value }, () => setting())).to.equal(value);
      expect(await setting()).to.be.oneOf(['', null]);
    });

    it('withTransactionSettings: a view on the same pool whose statements and transactions take its own settings', async () => {
      let current: TransactionSettings | undefined = { 'app.tenant_id': 'bound' };
      const bound = db.withTransactionSettings(() => current);
      // Its own settings, whatever scope it is called from: statements, transactions (and their savepoints).
      expect(await setting(bound)).to.equal('bound');
      expect(await scope.run({ 'app.tenant_id': 'acme' }, () => setting(bound))).to.equal('bound');
      expect(await bound.transaction((tx) => tx.transaction((inner) => setting(inner)))).to.equal('bound');
      expect(await bound.one<{ n: number }>(sql`SELECT 1 AS n`, { prepare: true })).to.deep.equal({ n: 1 });
      // Read at each statement; none (or an empty set) runs without settings, even inside a scope.
      current = { 'app.tenant_id': 'changed' };
      expect(await setting(bound)).to.equal('changed');
      current = undefined;
      expect(await scope.run({ 'app.tenant_id': 'acme' }, () => setting(bound))).to.be.oneOf(['', null]);
      current = {};
      expect(await setting(bound)).to.be.oneOf(['', null]);
      // The database itself still follows the scope, and the bound settings did not stay on the one connection.
      expect(await scope.run({ 'app.tenant_id': 'acme' }, () => setting())).to.equal('acme');
      expect(await setting()).to.be.oneOf(['', null]);
      // Bad settings are refused as they are from the provider.
      current = { 'search_path; DROP': 'x' };
      expect(await setting(bound).catch((e: unknown) => e)).to.be.instanceOf(SqlUsageError);
    });

    it('refuses a setting name that is not a custom "prefix.name"', async () => {
      const error = await scope.run({ 'search_path; DROP': 'x' }, () => setting()).catch((e: unknown) => e);
      expect(error).to.be.instanceOf(SqlUsageError);
      expect((error as Error).message).to.include('prefix.name');
    });
  });
}
