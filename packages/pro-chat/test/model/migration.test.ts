import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { parseMigration } from '@framework/data/migrations';
import { CHAT_MIGRATION_STEPS, CHAT_TABLES, chatMigrationSql } from '../../src/index.js';

describe('the chat migration', () => {
  it('makes every table a tenant table, has a down section, and the example app keeps an exact copy of it', () => {
    const migration = parseMigration('0030_chat.sql', chatMigrationSql());
    for (const table of CHAT_TABLES) {
      expect(migration.up).to.contain(`ALTER TABLE ${table} FORCE ROW LEVEL SECURITY;`).and.contain(`CREATE POLICY fw_tenant_isolation ON ${table}`);
      expect(migration.down).to.contain(`DROP TABLE IF EXISTS ${table};`);
    }
    const copy = readFileSync(new URL('../../../../examples/tasks-api/migrations/0030_chat.sql', import.meta.url), 'utf8');
    expect(copy).to.equal(chatMigrationSql());
  });

  it('ships step 2 (revisions, the digest watermark) as a file of its own, with a down section, copied exactly by the example', () => {
    expect(CHAT_MIGRATION_STEPS).to.equal(2);
    const migration = parseMigration('0042_chat_revisions.sql', chatMigrationSql(2));
    expect(migration.up).to.contain('ADD COLUMN last_rev').and.contain('ADD COLUMN digested_seq');
    expect(migration.down).to.contain('DROP COLUMN IF EXISTS rev');
    const copy = readFileSync(new URL('../../../../examples/tasks-api/migrations/0042_chat_revisions.sql', import.meta.url), 'utf8');
    expect(copy).to.equal(chatMigrationSql(2));
    expect(() => chatMigrationSql(3)).to.throw(/step is 1 to 2/);
  });
});
