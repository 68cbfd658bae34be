import { expect } from 'chai';
import pg from 'pg';
import { Database, sql, TransactionAbortedError, transactionBackoff, type Transaction } from '../src/index.js';
import { ENGINES, useEngine } from './support/engines.js';

const quiet = { warn: () => undefined };

for (const engine of ENGINES) {
  describe(`transactions on ${engine.name}`, () => {
    const server = useEngine(engine);
    let db: Database;

    before(async () => {
      db = new Database({ connection: server().connection, logger: quiet });
      await db.query(sql`CREATE TABLE accounts (id text PRIMARY KEY, balance integer NOT NULL)`);
    });
    after(async () => db?.end());
    beforeEach(async () => {
      await db.query(sql`DELETE FROM accounts`);
      await db.query(sql`INSERT INTO accounts VALUES ${sql.values([['a', 100], ['b', 0]])}`);
    });

    const balance = async (id: string) => (await db.one<{ balance: number }>(sql`SELECT balance FROM accounts WHERE id = ${id}`)).balance;

    it('commits when the callback returns, and returns its value', async () => {
      const result = await db.transaction(async (tx) => {
        await tx.query(sql`UPDATE accounts SET balance = balance - 30 WHERE id = ${'a'}`);
        await tx.query(sql`UPDATE accounts SET balance = balance + 30 WHERE id = ${'b'}`);
        return 'moved';
      });
      expect(result).to.equal('moved');
      expect([await balance('a'), await balance('b')]).to.deep.equal([70, 30]);
    });

    it('rolls back everything when the callback throws, and rethrows', async () => {
      const error = await db
        .transaction(async (tx) => {
          await tx.query(sql`UPDATE accounts SET balance = balance - 30 WHERE id = ${'a'}`);
          throw new Error('insufficient approval');
        })
        .catch((e: Error) => e);
      expect(error).to.have.property('message', 'insufficient approval');
      expect(await balance('a')).to.equal(100);
    });

    it('nests with savepoints: an inner failure rolls back only the inner work', async () => {
      await db.transaction(async (tx) => {
        expect(tx.depth).to.equal(1);
        await tx.query(sql`UPDATE accounts SET balance = 1 WHERE id = ${'a'}`);
        const inner = await tx
          .transaction(async (inner: Transaction) => {
            expect(inner.depth).to.equal(2);
            await inner.query(sql`UPDATE accounts SET balance = 2 WHERE id = ${'b'}`);
            // a constraint violation inside the savepoint: the outer transaction must stay usable
            await inner.query(sql`INSERT INTO accounts VALUES (${'a'}, ${0})`);
          })
          .catch((e: unknown) => e);
        expect(inner).to.have.property('status', 409);
        await tx.transaction(async (inner) => inner.query(sql`UPDATE accounts SET balance = 3 WHERE id = ${'b'}`));
      });
      expect([await balance('a'), await balance('b')]).to.deep.equal([1, 3]);
    });

    it('rejects with FW_ERR_DATA_TRANSACTION_ABORTED when the callback caught a failed statement and returned', async () => {
      // given a callback that writes, catches a failing statement (a duplicate key) and returns as if all went well
      const error = await db
        .transaction(async (tx) => {
          await tx.query(sql`UPDATE accounts SET balance = 1 WHERE id = ${'a'}`);
          await tx.query(sql`INSERT INTO accounts VALUES (${'a'}, ${0})`).catch(() => undefined);
          return 'saved';
        })
        .catch((e: unknown) => e);
      // then PostgreSQL's ROLLBACK answer to the COMMIT is not reported as success
      expect(error).to.be.instanceOf(TransactionAbortedError).and.include({ code: 'FW_ERR_DATA_TRANSACTION_ABORTED' });
      expect((error as Error).message).to.contain('23505').and.contain('tx.transaction');
      expect((error as Error).cause).to.have.property('code', '23505');
      expect(await balance('a')).to.equal(100);
    });

    it('rejects the next statement with FW_ERR_DATA_TRANSACTION_ABORTED when the callback caught a failed statement and went on', async () => {
      let next: unknown;
      const error = await db
        .transaction(async (tx) => {
          await tx.query(sql`UPDATE accounts SET balance = 1 WHERE id = ${'a'}`);
          await tx.query(sql`SELECT 1 / ${0}::int`).catch(() => undefined);
          // the statement after the failure: the server would only answer 25P02 "current transaction is aborted"
          next = await tx.query(sql`UPDATE accounts SET balance = 2 WHERE id = ${'b'}`).catch((e: unknown) => e);
          // and a callback that swallows that too still does not get a commit
          return 'saved';
        })
        .catch((e: unknown) => e);
      expect(next).to.be.instanceOf(TransactionAbortedError);
      expect((next as Error).cause).to.have.property('code', '22012');
      expect(error).to.be.instanceOf(TransactionAbortedError);
      expect([await balance('a'), await balance('b')]).to.deep.equal([100, 0]);
    });

    it('rolls back only a savepoint whose callback caught a failed statement, rejecting it; the outer work commits', async () => {
      await db.transaction(async (tx) => {
        await tx.query(sql`UPDATE accounts SET balance = 1 WHERE id = ${'a'}`);
        const inner = await tx
          .transaction(async (inner) => {
            await inner.query(sql`UPDATE accounts SET balance = 2 WHERE id = ${'b'}`);
            await inner.query(sql`INSERT INTO accounts VALUES (${'a'}, ${0})`).catch(() => undefined);
          })
          .catch((e: unknown) => e);
        expect(inner).to.be.instanceOf(TransactionAbortedError);
        // the outer transaction is usable again after the savepoint was rolled back
        await tx.query(sql`UPDATE accounts SET balance = 3 WHERE id = ${'b'}`);
      });
      expect([await balance('a'), await balance('b')]).to.deep.equal([1, 3]);
    });

    it('refuses statements on a transaction that has finished', async () => {
      let leaked: Transaction | undefined;
      await db.transaction(async (tx) => {
        leaked = tx;
      });
      const error = await (leaked as Transaction).query(sql`SELECT 1`).catch((e: unknown) => e);
      expect(error).to.have.property('code', 'FW_ERR_DATA_SQL_USAGE');
    });

    it('runs read-only transactions at the requested isolation level', async () => {
      const level = await db.transaction(async (tx) => (await tx.one<{ l: string }>(sql`SELECT current_setting('transaction_isolation') AS l`)).l, { isolationLevel: 'repeatable read', readOnly: true });
      expect(level).to.equal('repeatable read');
      const write = await db.transaction((tx) => tx.query(sql`UPDATE accounts SET balance = 0`), { readOnly: true }).catch((e: unknown) => e);
      expect(write).to.have.property('code', '25006');
    });
  });
}

describe(`transaction retries on PostgreSQL (two real concurrent sessions)`, () => {
  const server = useEngine(ENGINES.find((e) => e.name === 'PostgreSQL') as (typeof ENGINES)[number]);
  let db: Database;
  const warnings: { message: string; data: unknown }[] = [];

  before(async () => {
    db = new Database({ connection: server().connection, logger: { warn: (message, data) => warnings.push({ message, data }) } });
    await db.query(sql`CREATE TABLE counters (id text PRIMARY KEY, n integer NOT NULL)`);
  });
  after(async () => db?.end());
  beforeEach(async () => {
    warnings.length = 0;
    await db.query(sql`DELETE FROM counters`);
    await db.query(sql`INSERT INTO counters VALUES (${'x'}, ${0})`);
  });

  it('retries a serialization failure (40001) and both increments land', async () => {
    // given two serializable transactions that both read then write the same row, forced to overlap
    let arrived = 0;
    let release!: () => void;
    const bothRead = new Promise<void>((resolve) => (release = resolve));
    const attempts = { count: 0 };
    const increment = () =>
      db.transaction(
        async (tx) => {
          attempts.count++;
          const { n } = await tx.one<{ n: number }>(sql`SELECT n FROM counters WHERE id = ${'x'}`);
          if (++arrived === 2) release();
          if (arrived <= 2) await bothRead;
          await tx.query(sql`UPDATE counters SET n = ${n + 1} WHERE id = ${'x'}`);
        },
        { isolationLevel: 'serializable' },
      );
    // when both run at once
    await Promise.all([increment(), increment()]);
    // then one of them failed with 40001, was run again, and the counter counts both
    expect((await db.one<{ n: number }>(sql`SELECT n FROM counters WHERE id = ${'x'}`)).n).to.equal(2);
    expect(attempts.count).to.equal(3);
    expect(warnings.some((w) => w.message === 'transaction retried' && JSON.stringify(w.data).includes('40001'))).to.equal(true);
  });

  it('gives up after maxRetries and rethrows the serialization failure', async () => {
    let arrived = 0;
    let release!: () => void;
    const bothRead = new Promise<void>((resolve) => (release = resolve));
    const increment = () =>
      db.transaction(
        async (tx) => {
          const { n } = await tx.one<{ n: number }>(sql`SELECT n FROM counters WHERE id = ${'x'}`);
          if (++arrived === 2) release();
          await bothRead;
          await tx.query(sql`UPDATE counters SET n = ${n + 1} WHERE id = ${'x'}`);
        },
        { isolationLevel: 'serializable', maxRetries: 0 },
      );
    const results = await Promise.allSettled([increment(), increment()]);
    const rejected = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
    expect(rejected).to.have.length(1);
    expect(rejected[0]?.reason).to.have.property('code', '40001');
  });

  it('retries a read once when its connection is killed under it, but never a write', async () => {
    // given a pool of one connection and an admin session that terminates backends running pg_sleep
    const admin = new pg.Client(server().connection);
    await admin.connect();
    const kill = async () => {
      for (let i = 0; i < 100; i++) {
        const { rows } = await admin.query(`SELECT pg_terminate_backend(pid) AS killed FROM pg_stat_activity WHERE query LIKE '%pg_sleep(0.5)%' AND pid <> pg_backend_pid()`);
        if (rows.length > 0) return;
        await new Promise((r) => setTimeout(r, 20));
      }
    };
    try {
      // when a read is killed once, it is retried on a new connection and answers
      const [read] = await Promise.all([db.one<{ x: number }>(sql`SELECT 1 AS x, pg_sleep(0.5) IS NULL AS slept`), kill()]);
      expect(read.x).to.equal(1);
      expect(warnings.some((w) => w.message.includes('retrying the read'))).to.equal(true);
      // then a write killed the same way is not retried
      const [write] = await Promise.all([db.query(sql`UPDATE counters SET n = n + 1 WHERE id = ${'x'} AND pg_sleep(0.5) IS NOT NULL`).catch((e: unknown) => e), kill()]);
      expect(write).to.be.instanceOf(Error);
      expect((await db.one<{ n: number }>(sql`SELECT n FROM counters WHERE id = ${'x'}`)).n).to.equal(0);
    } finally {
      await admin.end();
    }
  });
});

describe('transaction backoff', () => {
  it('grows exponentially with jitter and is capped', () => {
    expect(transactionBackoff(0, () => 0)).to.equal(10);
    expect(transactionBackoff(0, () => 1)).to.equal(20);
    expect(transactionBackoff(3, () => 1)).to.equal(160);
    expect(transactionBackoff(20, () => 1)).to.equal(1000);
  });
});
