import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { parseMigration } from '@framework/data/migrations';
import { CHANNELS_MIGRATION, NOTIFY_MIGRATION_SQL, NOTIFY_RECIPIENT_MIGRATION_SQL, notifyMigrationSql } from '../../src/index.js';

const exampleMigration = (file: string) => readFileSync(new URL(`../../../../examples/tasks-api/migrations/${file}`, import.meta.url), 'utf8');

describe('the outbox migration', () => {
  it('is a migration with a down section, and the example app keeps an exact copy of it', () => {
    const migration = parseMigration('0003_notify_outbox.sql', notifyMigrationSql());
    expect(migration.down).to.contain('DROP TABLE fw_notify_outbox');
    const copy = readFileSync(new URL('../../../../examples/tasks-api/migrations/0003_notify_outbox.sql', import.meta.url), 'utf8');
    expect(copy).to.equal(NOTIFY_MIGRATION_SQL);
  });

  it('the recipient migration has a down section that restores the first one, and the example keeps exact copies of it and of the channels migration', () => {
    const migration = parseMigration('0015_notify_recipient.sql', NOTIFY_RECIPIENT_MIGRATION_SQL);
    expect(migration.up).to.contain('ADD COLUMN user_id text');
    expect(migration.down).to.contain('DROP COLUMN user_id');
    expect(exampleMigration('0014_notify_channels.sql')).to.equal(CHANNELS_MIGRATION);
    expect(exampleMigration('0015_notify_recipient.sql')).to.equal(NOTIFY_RECIPIENT_MIGRATION_SQL);
  });
});
