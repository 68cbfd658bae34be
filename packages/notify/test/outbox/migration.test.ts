import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { parseMigration } from '@framework/data/migrations';
import { NOTIFY_MIGRATION_SQL, notifyMigrationSql } from '../../src/index.js';

describe('the outbox migration', () => {
  it('is a migration with a down section, and the example app keeps an exact copy of it', () => {
    const migration = parseMigration('0003_notify_outbox.sql', notifyMigrationSql());
    expect(migration.down).to.contain('DROP TABLE fw_notify_outbox');
    const copy = readFileSync(new URL('../../../../examples/tasks-api/migrations/0003_notify_outbox.sql', import.meta.url), 'utf8');
    expect(copy).to.equal(NOTIFY_MIGRATION_SQL);
  });
});
