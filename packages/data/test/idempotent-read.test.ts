import { expect } from 'chai';
import { isConnectionLost, isIdempotentRead, mapConstraintError, sqlState } from '../src/index.js';

describe('retry classification', () => {
  it('treats only plain reads as safe to run twice', () => {
    for (const text of ['SELECT * FROM tasks WHERE id = $1', '  select 1', 'SHOW server_version', 'VALUES (1)', 'TABLE tasks']) expect(isIdempotentRead(text), text).to.equal(true);
    for (const text of [
      'INSERT INTO tasks VALUES ($1)',
      'WITH x AS (DELETE FROM tasks RETURNING *) SELECT * FROM x',
      'SELECT * FROM tasks FOR UPDATE',
      'SELECT * FROM tasks FOR NO KEY UPDATE',
      'SELECT nextval($1)',
      'SELECT * INTO copy FROM tasks',
      'SELECT pg_advisory_lock(1)',
      'EXPLAIN ANALYZE DELETE FROM tasks',
    ]) expect(isIdempotentRead(text), text).to.equal(false);
  });

  it('recognizes lost connections but not query errors', () => {
    expect(isConnectionLost(Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' }))).to.equal(true);
    expect(isConnectionLost(Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' }))).to.equal(true);
    expect(isConnectionLost(new Error('Connection terminated unexpectedly'))).to.equal(true);
    expect(isConnectionLost(Object.assign(new Error('syntax error'), { code: '42601' }))).to.equal(false);
  });

  it('finds the SQLSTATE through wrapping and maps only integrity violations', () => {
    const pgError = Object.assign(new Error('duplicate key'), { code: '23505', constraint: 'tasks_pkey' });
    expect(sqlState(new Error('wrapped', { cause: pgError }))).to.equal('23505');
    expect(mapConstraintError(pgError)?.error.status).to.equal(409);
    expect(mapConstraintError(pgError)?.log).to.include({ constraint: 'tasks_pkey' });
    expect(mapConstraintError(Object.assign(new Error('x'), { code: '40001' }))).to.equal(undefined);
  });
});
