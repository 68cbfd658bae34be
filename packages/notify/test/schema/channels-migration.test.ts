import { sql } from '@framework/data';
import { migrate, parseMigration, rollbackMigrations } from '@framework/data/migrations';
import { expect } from 'chai';
import { CHANNELS_MIGRATION } from '../../src/index.js';
import { useChannelsDatabase } from '../support/channels-database.js';

const TABLES = ['fw_notify_preferences', 'fw_notify_suppressions', 'fw_notify_whatsapp_sessions', 'fw_notify_digest_items'];

describe('the channels migration (kept by the app as one of its migration files)', () => {
  const db = useChannelsDatabase();
  const migrations = [parseMigration('0003_notify_channels.sql', CHANNELS_MIGRATION)];

  const existing = async () => (await db().many<{ name: string | null }>(sql`SELECT to_regclass(name)::text AS name FROM unnest(${TABLES}::text[]) AS name`)).map((r) => r.name);

  it('creates the four tables; its down section drops them; applied again it creates them again', async () => {
    expect(await existing()).to.deep.equal(TABLES);
    expect(await rollbackMigrations(db(), { migrations, steps: 1 })).to.have.length(1);
    expect(await existing()).to.deep.equal([null, null, null, null]);
    expect((await migrate(db(), { migrations })).applied).to.have.length(1);
    expect(await existing()).to.deep.equal(TABLES);
  });
});
