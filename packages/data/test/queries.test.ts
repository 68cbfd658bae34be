import { expect } from 'chai';
import { Conflict, HttpError, UnprocessableEntity } from '@framework/runtime';
import { Database, NoRowsError, TooManyRowsError, BadCursorError, sql, type Page } from '../src/index.js';
import { ENGINES, useEngine } from './support/engines.js';

interface Task {
  id: number;
  title: string;
  owner: string;
  created_at: Date;
}

const HOSTILE = [`'; DROP TABLE tasks; --`, `" OR 1=1 --`, `$1`, `\\'; SELECT pg_sleep(1); --`, `Robert'); DELETE FROM tasks;--`];

for (const engine of ENGINES) {
  describe(`queries on ${engine.name}`, () => {
    const server = useEngine(engine);
    let db: Database;
    const warnings: unknown[] = [];

    before(async () => {
      db = new Database({ connection: server().connection, logger: { warn: (message, data) => warnings.push({ message, data }) } });
      await db.query(sql`CREATE TABLE tasks (
        id serial PRIMARY KEY,
        title text NOT NULL UNIQUE,
        owner text NOT NULL CHECK (owner <> ''),
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
      await db.query(sql`CREATE TABLE comments (id serial PRIMARY KEY, task_id integer NOT NULL REFERENCES tasks(id), body text)`);
    });
    after(async () => db?.end());
    beforeEach(async () => {
      await db.query(sql`TRUNCATE comments, tasks RESTART IDENTITY`);
      warnings.length = 0;
    });

    it('returns hostile strings through every helper as data, leaving the table intact', async () => {
      // given rows inserted through sql.values
      await db.query(sql`INSERT INTO tasks (title, owner) VALUES ${sql.values(HOSTILE.map((t, i) => [t, `o${i}`]))}`);
      // when each hostile string is used as a plain value, in a list, in a join and as JSON
      for (const text of HOSTILE) {
        const viaValue = await db.one<Task>(sql`SELECT * FROM tasks WHERE title = ${text}`);
        expect(viaValue.title).to.equal(text);
        const viaList = await db.many<Task>(sql`SELECT * FROM tasks WHERE title IN (${sql.list([text, 'nothing'])})`);
        expect(viaList.map((r) => r.title)).to.deep.equal([text]);
        const viaJoin = await db.many<Task>(sql`SELECT * FROM tasks WHERE ${sql.join([sql`title = ${text}`, sql`owner LIKE ${'o%'}`], sql` AND `)}`);
        expect(viaJoin).to.have.length(1);
        const viaJson = await db.one<{ v: unknown }>(sql`SELECT ${sql.json({ text })}::jsonb AS v`);
        expect(viaJson.v).to.deep.equal({ text });
        const viaArray = await db.many<Task>(sql`SELECT * FROM tasks WHERE title = ANY(${[text]})`);
        expect(viaArray).to.have.length(1);
      }
      // then an identifier built from hostile text names a (missing) relation instead of running SQL
      const missing = await db.query(sql`SELECT * FROM ${sql.identifier(HOSTILE[0] as string)}`).catch((e: Error) => e);
      expect(missing).to.be.instanceOf(Error).with.property('message').that.matches(/does not exist/);
      expect((await db.one<{ n: string }>(sql`SELECT count(*) AS n FROM tasks`)).n).to.equal(String(HOSTILE.length));
    });

    it('returns hostile cursor and order values as data in paginate', async () => {
      await db.query(sql`INSERT INTO tasks (title, owner) VALUES ${sql.values(HOSTILE.map((t) => [t, 'x']))}`);
      const forged = Buffer.from(JSON.stringify({ o: 'id:asc', v: ["0) OR 1=1; DROP TABLE tasks; --"] })).toString('base64url');
      const error = await db.paginate(sql`SELECT * FROM tasks`, { orderBy: [{ column: 'id' }], after: forged }).catch((e: Error) => e);
      // the forged value reaches the server as a parameter of type integer, fails to parse as one: a 400, not SQL
      expect(error).to.be.instanceOf(BadCursorError).and.include({ status: 400, code: 'INVALID_CURSOR' });
      expect((await db.one<{ n: string }>(sql`SELECT count(*) AS n FROM tasks`)).n).to.equal(String(HOSTILE.length));
    });

    it('one, maybeOne and many enforce their row counts with coded errors', async () => {
      await db.query(sql`INSERT INTO tasks (title, owner) VALUES ${sql.values([['a', 'ann'], ['b', 'ann']])}`);
      expect((await db.one<Task>(sql`SELECT * FROM tasks WHERE title = ${'a'}`)).owner).to.equal('ann');
      expect(await db.maybeOne(sql`SELECT * FROM tasks WHERE title = ${'zzz'}`)).to.equal(undefined);
      expect(await db.many(sql`SELECT * FROM tasks WHERE owner = ${'nobody'}`)).to.deep.equal([]);
      const none = await db.one(sql`SELECT * FROM tasks WHERE title = ${'zzz'}`).catch((e: unknown) => e);
      expect(none).to.be.instanceOf(NoRowsError).with.property('code', 'FW_ERR_DATA_NO_ROWS');
      const two = await db.maybeOne(sql`SELECT * FROM tasks`).catch((e: unknown) => e);
      expect(two).to.be.instanceOf(TooManyRowsError).with.property('code', 'FW_ERR_DATA_TOO_MANY_ROWS');
    });

    it('refuses a string statement instead of running it', async () => {
      const error = await db.query('SELECT 1' as never).catch((e: unknown) => e);
      expect(error).to.have.property('code', 'FW_ERR_DATA_SQL_USAGE');
    });

    it('maps constraint violations to 409/422 HttpErrors that name the constraint only in the log', async () => {
      await db.query(sql`INSERT INTO tasks (title, owner) VALUES (${'dup'}, ${'ann'})`);
      const unique = await db.query(sql`INSERT INTO tasks (title, owner) VALUES (${'dup'}, ${'bob'})`).catch((e: unknown) => e);
      expect(unique).to.be.instanceOf(Conflict).and.include({ status: 409, code: 'CONFLICT' });
      expect((unique as Error).message).not.to.match(/tasks_title_key|tasks/);
      expect(JSON.stringify(warnings)).to.contain('tasks_title_key');

      const fk = await db.query(sql`INSERT INTO comments (task_id, body) VALUES (${999}, ${'x'})`).catch((e: unknown) => e);
      expect(fk).to.be.instanceOf(UnprocessableEntity).and.include({ status: 422, code: 'REFERENCE_VIOLATION' });
      const notNull = await db.query(sql`INSERT INTO tasks (title, owner) VALUES (${'n'}, ${null})`).catch((e: unknown) => e);
      expect(notNull).to.be.instanceOf(UnprocessableEntity).and.include({ code: 'MISSING_VALUE' });
      const check = await db.query(sql`INSERT INTO tasks (title, owner) VALUES (${'c'}, ${''})`).catch((e: unknown) => e);
      expect(check).to.be.instanceOf(UnprocessableEntity).and.include({ code: 'CHECK_VIOLATION' });
      expect(JSON.stringify(warnings)).to.contain('comments_task_id_fkey').and.contain('tasks_owner_check');
    });

    it('pages through rows with keyset cursors, in one or mixed directions', async () => {
      // given 7 tasks, two owners, created at distinct times
      const rows = Array.from({ length: 7 }, (_, i) => [`t${i}`, i % 2 ? 'bob' : 'ann', new Date(Date.UTC(2026, 0, 1, 0, 0, i))]);
      await db.query(sql`INSERT INTO tasks (title, owner, created_at) VALUES ${sql.values(rows)}`);
      // when paging by created_at desc, id desc, 3 at a time
      const seen: string[] = [];
      let after: string | undefined;
      let pages = 0;
      do {
        const page: Page<Task> = await db.paginate<Task>(sql`SELECT id, title, created_at FROM tasks`, { orderBy: [{ column: 'created_at', direction: 'desc' }, { column: 'id', direction: 'desc' }], limit: 3, ...(after ? { after } : {}) });
        seen.push(...page.items.map((t) => t.title));
        after = page.nextCursor;
        pages++;
      } while (after);
      // then every row comes exactly once, newest first
      expect(pages).to.equal(3);
      expect(seen).to.deep.equal(['t6', 't5', 't4', 't3', 't2', 't1', 't0']);

      // mixed directions: owner asc, id desc
      const mixed: string[] = [];
      after = undefined;
      do {
        const page: Page<Task> = await db.paginate<Task>(sql`SELECT id, title, owner FROM tasks`, { orderBy: [{ column: 'owner' }, { column: 'id', direction: 'desc' }], limit: 2, ...(after ? { after } : {}) });
        mixed.push(...page.items.map((t) => t.title));
        after = page.nextCursor;
      } while (after);
      expect(mixed).to.deep.equal(['t6', 't4', 't2', 't0', 't5', 't3', 't1']);
    });

    it('answers 400 INVALID_CURSOR to cursor values of the wrong type for their column', async () => {
      // given a listing ordered by created_at desc, id desc (and one by title), with a real second page
      await db.query(sql`INSERT INTO tasks (title, owner) VALUES ${sql.values([['a', 'x'], ['b', 'x']])}`);
      const byTime = { orderBy: [{ column: 'created_at', direction: 'desc' as const }, { column: 'id', direction: 'desc' as const }], limit: 1 };
      const first = await db.paginate(sql`SELECT * FROM tasks`, byTime);
      expect(first.nextCursor).to.be.a('string');
      // when the client sends cursors with the right ordering but values of the wrong type (raw JSON: 1e400, 2^63)
      const cursor = (order: string, values: string) => Buffer.from(`{"o":"${order}","v":${values}}`).toString('base64url');
      const time = 'created_at:desc,id:desc';
      const forged = [
        { orderBy: byTime.orderBy, after: cursor(time, '["not a time", 1]') },
        { orderBy: byTime.orderBy, after: cursor(time, '[true, 1]') },
        { orderBy: byTime.orderBy, after: cursor(time, '[{"d":"not a time"}, 1]') },
        { orderBy: byTime.orderBy, after: cursor(time, '[{"d":"2026-01-01T00:00:00.000Z"}, 1e400]') },
        { orderBy: byTime.orderBy, after: cursor(time, '[{"d":"2026-01-01T00:00:00.000Z"}, 9223372036854775808]') },
        { orderBy: byTime.orderBy, after: cursor(time, '[{"d":"2026-01-01T00:00:00.000Z"}, "one"]') },
        { orderBy: [{ column: 'title' }], after: cursor('title:asc', '["a\\u0000b"]') },
      ];
      for (const { orderBy, after } of forged) {
        const error = await db.paginate(sql`SELECT * FROM tasks`, { orderBy, after }).catch((e: unknown) => e);
        // then each is the documented 400, not a 500
        expect(error, Buffer.from(after, 'base64url').toString()).to.be.instanceOf(BadCursorError).and.include({ status: 400, code: 'INVALID_CURSOR' });
      }
      // and inside a transaction too (the failed page query aborts it: the callback lets the 400 through)
      const inTx = await db.transaction((tx) => tx.paginate(sql`SELECT * FROM tasks`, { ...byTime, after: forged[4]?.after as string })).catch((e: unknown) => e);
      expect(inTx).to.be.instanceOf(BadCursorError);
    });

    it('answers client-caused value errors (SQLSTATE class 22) with 400/422 coded errors that quote neither value nor statement', async () => {
      const cases: { statement: ReturnType<typeof sql>; status: number; code: string }[] = [
        { statement: sql`INSERT INTO tasks (title, owner) VALUES (${'nul\u0000here'}, ${'x'})`, status: 400, code: 'INVALID_TEXT' },
        { statement: sql`INSERT INTO tasks (title, owner) VALUES (${Buffer.from([0x66, 0xff, 0xfe])}, ${'x'})`, status: 400, code: 'INVALID_TEXT' },
        { statement: sql`SELECT ${'123456.789'}::numeric(5, 2) AS n`, status: 422, code: 'INVALID_VALUE' },
        { statement: sql`SELECT * FROM tasks WHERE id = ${'secret-looking-42'}`, status: 422, code: 'INVALID_VALUE' },
        { statement: sql`SELECT * FROM tasks WHERE created_at < ${'yesterday-ish'}`, status: 422, code: 'INVALID_VALUE' },
        { statement: sql`SELECT * FROM tasks WHERE id = ${2 ** 40}`, status: 422, code: 'INVALID_VALUE' },
      ];
      for (const { statement, status, code } of cases) {
        const error = await db.query(statement).catch((e: unknown) => e);
        expect(error, statement.toString()).to.be.instanceOf(HttpError).and.include({ status, code });
        expect((error as Error).message).not.to.match(/secret-looking|yesterday|123456|here|tasks|SELECT|INSERT/);
      }
      // the log says which SQLSTATE and statement (placeholders only), never the value
      expect(JSON.stringify(warnings)).to.contain('22021').and.contain('22P02').and.not.contain('secret-looking');
    });

    it('refuses an identifier the server would cut to 63 bytes, so two long names never reach one table', async () => {
      const stem = 't'.repeat(63);
      await db.query(sql`CREATE TABLE ${sql.identifier(stem)} (id int)`);
      try {
        // "<stem>_a" and "<stem>_b" would both be truncated to "<stem>"
        for (const name of [`${stem}_a`, `${stem}_b`]) {
          const error = await Promise.resolve()
            .then(() => db.query(sql`INSERT INTO ${sql.identifier(name)} VALUES (1)`))
            .catch((e: unknown) => e);
          expect(error, name).to.have.property('code', 'FW_ERR_DATA_SQL_USAGE');
        }
        expect(await db.many(sql`SELECT * FROM ${sql.identifier(stem)}`)).to.deep.equal([]);
      } finally {
        await db.query(sql`DROP TABLE ${sql.identifier(stem)}`);
      }
    });

    it('refuses a statement of more than 65,535 parameters before it reaches the server', async () => {
      const ids = (n: number) => Array.from({ length: n }, (_, i) => i);
      // the most the protocol can carry still runs
      expect(await db.many(sql`SELECT id FROM tasks WHERE id IN (${sql.list(ids(65_535))})`)).to.deep.equal([]);
      // one more is a usage error naming the limit and the fix, on the database and in a transaction
      const error = await db.many(sql`SELECT id FROM tasks WHERE id IN (${sql.list(ids(65_536))})`).catch((e: unknown) => e);
      expect(error).to.have.property('code', 'FW_ERR_DATA_SQL_USAGE');
      expect((error as Error).message).to.contain('65536 parameters').and.contain('65535').and.contain('ANY');
      const inTx = await db.transaction((tx) => tx.query(sql`SELECT ${sql.list(ids(70_000))}`)).catch((e: unknown) => e);
      expect(inTx).to.have.property('code', 'FW_ERR_DATA_SQL_USAGE');
      // and nothing was taken for a lost connection and retried
      expect(JSON.stringify(warnings)).not.to.contain('retrying');
    });

    it('rejects a cursor from another ordering with a 400', async () => {
      await db.query(sql`INSERT INTO tasks (title, owner) VALUES ${sql.values([['a', 'x'], ['b', 'x']])}`);
      const first = await db.paginate(sql`SELECT * FROM tasks`, { orderBy: [{ column: 'id' }], limit: 1 });
      const error = await db.paginate(sql`SELECT * FROM tasks`, { orderBy: [{ column: 'title' }], after: first.nextCursor as string }).catch((e: unknown) => e);
      expect(error).to.be.instanceOf(BadCursorError).and.include({ status: 400, code: 'INVALID_CURSOR' });
    });
  });
}
