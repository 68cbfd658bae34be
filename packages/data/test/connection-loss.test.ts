import { expect } from 'chai';
import pg from 'pg';
import { ConnectionLostError, Database, setTransactionSettingsProvider, sql } from '../src/index.js';
import { migrate, migrationStatus, parseMigration } from '../src/migrations/index.js';
import { ENGINES, useEngine } from './support/engines.js';

/**
 * A backend terminated under a checked-out connection (failover, restart, idle-session timeout) used to emit an
 * 'error' event nobody listened to, which kills the process (mocha reports it as an uncaught error of the test).
 * Native PostgreSQL only: PGlite serves every socket from one session, which pg_terminate_backend cannot end.
 */
describe('a connection lost inside a transaction or a migration (PostgreSQL, backends terminated)', () => {
  const server = useEngine(ENGINES.find((e) => e.name === 'PostgreSQL') as (typeof ENGINES)[number]);
  const warnings: { message: string; data: unknown }[] = [];
  let db: Database;
  let admin: pg.Client;

  before(async () => {
    // One connection: a dead one that went back to the pool (instead of being discarded) would break the next test.
    db = new Database({ connection: server().connection, maxConnections: 1, logger: { warn: (message, data) => warnings.push({ message, data }) } });
    admin = new pg.Client(server().connection);
    // The engine's teardown (DROP DATABASE ... WITH (FORCE)) runs before this suite's after hook and ends this session.
    admin.on('error', () => undefined);
    await admin.connect();
    await db.query(sql`CREATE TABLE notes (id serial PRIMARY KEY, body text NOT NULL)`);
    // A deferred constraint trigger runs inside COMMIT: it holds the COMMIT open long enough to terminate it there.
    await db.query(sql`CREATE TABLE slow_commits (id serial PRIMARY KEY)`);
    await db.query(sql`CREATE FUNCTION sleep_at_commit() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN PERFORM pg_sleep(30); RETURN NULL; END $$`);
    await db.query(sql`CREATE CONSTRAINT TRIGGER sleep_at_commit AFTER INSERT ON slow_commits DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION sleep_at_commit()`);
  });
  after(async () => {
    await admin?.end();
    await db?.end();
  });
  beforeEach(async () => {
    warnings.length = 0;
    await db.query(sql`TRUNCATE notes, slow_commits`);
  });

  /** Terminates a backend and waits until the server no longer lists it. */
  async function terminate(pid: number): Promise<void> {
    await admin.query('SELECT pg_terminate_backend($1)', [pid]);
    for (;;) {
      const { rows } = await admin.query('SELECT 1 FROM pg_stat_activity WHERE pid = $1', [pid]);
      if (rows.length === 0) return;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }

  /** Waits for a backend of this database whose running statement matches `pattern`, and terminates it. */
  async function terminateWhenRunning(pattern: string, state = 'active'): Promise<void> {
    for (;;) {
      const { rows } = await admin.query<{ pid: number }>(
        'SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid() AND state = $1 AND query LIKE $2',
        [state, pattern],
      );
      if (rows[0]) return terminate(rows[0].pid);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }

  const notes = async () => (await db.many<{ body: string }>(sql`SELECT body FROM notes ORDER BY id`)).map((r) => r.body);

  it('rejects with FW_ERR_DATA_CONNECTION_LOST when the backend dies while the transaction is idle, and the pool goes on', async () => {
    // given a transaction that wrote a row and then sits idle in transaction while its backend is terminated
    const error = await db
      .transaction(async (tx) => {
        await tx.query(sql`INSERT INTO notes (body) VALUES (${'lost'})`);
        const { pid } = await tx.one<{ pid: number }>(sql`SELECT pg_backend_pid() AS pid`);
        await terminate(pid);
        // when the callback goes on
        await tx.query(sql`SELECT 1`);
      })
      .catch((e: unknown) => e);
    // then the transaction rejects with the coded error, saying nothing was committed
    expect(error).to.be.instanceOf(ConnectionLostError).and.include({ code: 'FW_ERR_DATA_CONNECTION_LOST', outcome: 'rolled-back', retryable: true });
    // and the dead connection was discarded: the pool (of one) serves the next statement on a new one
    expect(await notes()).to.deep.equal([]);
    expect((await db.one<{ x: number }>(sql`SELECT 1 AS x`)).x).to.equal(1);
  });

  it('rejects the same way when the backend dies mid-statement', async () => {
    const [error] = await Promise.all([
      db.transaction(async (tx) => {
        await tx.query(sql`INSERT INTO notes (body) VALUES (${'lost'})`);
        await tx.query(sql`SELECT pg_sleep(30) /* mid-statement */`);
      }).catch((e: unknown) => e),
      terminateWhenRunning('%pg_sleep(30) /* mid-statement */%'),
    ]);
    expect(error).to.be.instanceOf(ConnectionLostError).and.include({ outcome: 'rolled-back' });
    expect(await notes()).to.deep.equal([]);
  });

  it('says the outcome is unknown when the backend dies during COMMIT', async () => {
    // As close to "the commit happened but its answer was lost" as a test can get: the backend is terminated while it
    // runs the COMMIT (inside a deferred trigger, before the commit record). The client cannot tell the two apart.
    const [error] = await Promise.all([
      db.transaction(async (tx) => {
        await tx.query(sql`INSERT INTO slow_commits DEFAULT VALUES`);
        return 'done';
      }).catch((e: unknown) => e),
      terminateWhenRunning('COMMIT'),
    ]);
    expect(error).to.be.instanceOf(ConnectionLostError).and.include({ outcome: 'unknown', retryable: false });
    expect((error as Error).message).to.contain('may or may not have been committed');
    expect((await db.one<{ x: number }>(sql`SELECT 1 AS x`)).x).to.equal(1);
  });

  it('under transaction settings (one round trip per statement): a lost write has an unknown outcome, a lost read is retried once', async () => {
    setTransactionSettingsProvider(() => ({ 'app.tenant_id': 'acme' }));
    try {
      const [lostWrite] = await Promise.all([
        db.query(sql`INSERT INTO notes (body) SELECT 'lost' FROM pg_sleep(30) /* settings-write */`).catch((e: unknown) => e),
        terminateWhenRunning('%/* settings-write */%'),
      ]);
      expect(lostWrite).to.be.instanceOf(ConnectionLostError).and.include({ outcome: 'unknown', retryable: false });
      const [read] = await Promise.all([db.one<{ x: number }>(sql`SELECT 1 AS x FROM pg_sleep(0.2) /* settings-read */`), terminateWhenRunning('%/* settings-read */%')]);
      expect(read.x).to.equal(1);
      expect(warnings.map((w) => w.message)).to.include('database connection lost, retrying the read once');
    } finally {
      setTransactionSettingsProvider(undefined);
    }
    expect(await notes()).to.deep.equal([]);
  });

  it('runs an idempotent transaction again on a new connection, and only an idempotent one', async () => {
    // given a callback whose first run loses its connection
    let runs = 0;
    const work = (idempotent: boolean) => {
      runs = 0;
      return db.transaction(
        async (tx) => {
          runs++;
          await tx.query(sql`INSERT INTO notes (body) VALUES (${`run ${runs}`})`);
          const { pid } = await tx.one<{ pid: number }>(sql`SELECT pg_backend_pid() AS pid`);
          if (runs === 1) await terminate(pid);
          await tx.query(sql`SELECT 1`);
          return runs;
        },
        { idempotent },
      );
    };
    // when it is declared idempotent, it is retried and its second run commits
    expect(await work(true)).to.equal(2);
    expect(await notes()).to.deep.equal(['run 2']);
    expect(warnings.some((w) => w.message === 'transaction retried' && JSON.stringify(w.data).includes('connection lost'))).to.equal(true);
    // when it is not, it is run once and rejects
    await db.query(sql`TRUNCATE notes`);
    const error = await work(false).catch((e: unknown) => e);
    expect(error).to.have.property('code', 'FW_ERR_DATA_CONNECTION_LOST');
    expect(runs).to.equal(1);
    expect(await notes()).to.deep.equal([]);
  });

  it('rejects migrate() with FW_ERR_DATA_CONNECTION_LOST naming the migration, and a new run resumes', async () => {
    // given a second migration that sleeps until it is terminated (and not once the table "slept" exists)
    const migrations = [
      parseMigration('0001_first.sql', 'CREATE TABLE first_table (id int);\n'),
      parseMigration('0002_slow.sql', "SELECT pg_sleep(CASE WHEN to_regclass('slept') IS NULL THEN 30 ELSE 0 END);\nCREATE TABLE second_table (id int);\n"),
    ];
    const [error] = await Promise.all([migrate(db, { migrations }).catch((e: unknown) => e), terminateWhenRunning('%pg_sleep(CASE%')]);
    expect(error).to.be.instanceOf(ConnectionLostError).and.include({ code: 'FW_ERR_DATA_CONNECTION_LOST', retryable: true });
    expect((error as Error).message).to.contain('0002_slow.sql');
    // then the first migration stays applied, the second is pending, and running again applies only the second
    expect((await migrationStatus(db, { migrations })).map((s) => s.state)).to.deep.equal(['applied', 'pending']);
    await db.query(sql`CREATE TABLE slept ()`);
    expect(await migrate(db, { migrations })).to.deep.equal({ applied: ['0002_slow.sql'], alreadyApplied: 1 });
  });
});
