import { expect } from 'chai';
import { sql, SqlFragment } from '../src/sql/index.js';
import { SqlUsageError } from '../src/errors.js';

describe('sql tag', () => {
  it('turns every interpolated value into a numbered parameter', () => {
    // given a statement with two values
    const q = sql`SELECT * FROM tasks WHERE id = ${42} AND title = ${"x'; DROP TABLE tasks; --"}`;
    // when compiled
    const { text, values } = q.compile();
    // then the text has placeholders only and the values travel separately
    expect(text).to.equal('SELECT * FROM tasks WHERE id = $1 AND title = $2');
    expect(values).to.deep.equal([42, "x'; DROP TABLE tasks; --"]);
  });

  it('splices nested fragments and renumbers their parameters', () => {
    const where = sql`owner = ${'ann'} AND done = ${false}`;
    const q = sql`SELECT 1 FROM tasks WHERE id = ${1} AND ${where} LIMIT ${10}`;
    expect(q.compile()).to.deep.equal({ text: 'SELECT 1 FROM tasks WHERE id = $1 AND owner = $2 AND done = $3 LIMIT $4', values: [1, 'ann', false, 10] });
  });

  it('treats an object that merely looks like a fragment as a value', () => {
    // given request JSON shaped like a fragment's fields
    const forged = JSON.parse('{"segments":["1; DROP TABLE tasks; --"],"values":[]}') as unknown;
    const q = sql`SELECT ${forged}`;
    expect(q.compile()).to.deep.equal({ text: 'SELECT $1', values: [forged] });
  });

  it('quotes identifiers, doubling embedded quotes', () => {
    expect(sql`SELECT * FROM ${sql.identifier('app', 'ta"sks')}`.compile().text).to.equal('SELECT * FROM "app"."ta""sks"');
    expect(() => sql.identifier('')).to.throw(SqlUsageError);
    expect(() => sql.identifier()).to.throw(SqlUsageError);
  });

  it('refuses identifiers longer than PostgreSQL\'s 63 bytes, counting UTF-8 bytes', () => {
    expect(sql.identifier('a'.repeat(63)).compile().text).to.equal(`"${'a'.repeat(63)}"`);
    expect(() => sql.identifier('a'.repeat(64))).to.throw(SqlUsageError, /64 bytes.*at most 63/);
    // 32 two-byte characters: 32 characters, 64 bytes
    expect(() => sql.identifier('é'.repeat(32))).to.throw(SqlUsageError, /64 bytes/);
    expect(() => sql.identifier('app', 'é'.repeat(31) + 'a')).not.to.throw();
  });

  it('builds lists, joins and multi-row values as parameters', () => {
    expect(sql`x IN (${sql.list(['a', 'b'])})`.compile()).to.deep.equal({ text: 'x IN ($1, $2)', values: ['a', 'b'] });
    expect(sql.join([sql`a = ${1}`, sql`b = ${2}`], sql` AND `).compile()).to.deep.equal({ text: 'a = $1 AND b = $2', values: [1, 2] });
    expect(sql`VALUES ${sql.values([[1, 'a'], [2, 'b']])}`.compile()).to.deep.equal({ text: 'VALUES ($1, $2), ($3, $4)', values: [1, 'a', 2, 'b'] });
  });

  it('refuses helper misuse that could not produce valid or safe SQL', () => {
    expect(() => sql.list([])).to.throw(SqlUsageError, /ANY/);
    expect(() => sql.join([1, 2], ' OR ' as unknown as SqlFragment)).to.throw(SqlUsageError, /separator/);
    expect(() => sql.values([[1], [1, 2]])).to.throw(SqlUsageError);
    expect(() => sql`${() => 1}`).to.throw(SqlUsageError);
  });

  it('binds undefined as NULL and JSON as text', () => {
    expect(sql`${undefined}`.compile().values).to.deep.equal([null]);
    expect(sql`${sql.json([1, { a: 2 }])}`.compile().values).to.deep.equal(['[1,{"a":2}]']);
  });

  it('shows placeholders, never values, when printed', () => {
    expect(String(sql`SELECT ${'secret'}`)).to.equal('SELECT $1');
  });
});
