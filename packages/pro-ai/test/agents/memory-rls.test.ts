import { expect } from 'chai';
import { appRoleSql, disableRowLevelSecurity, enableRowLevelSecurity, runWithTenant, tenantTable } from '@framework-pro/tenancy';
import type { Database } from '@framework/data';
import { aiStateMigrationSql, aiStateTenancyMigrationSql, PostgresBudgetStore, postgresMemory } from '../../src/index.js';
import { startVectorDatabase, type VectorDatabase } from '../support/pglite-vector.js';

const up = (migration: string) => migration.split(/^-- down$/m)[0]!;
const down = (migration: string) => migration.split(/^-- down$/m)[1]!;

describe('memory and budget tables under the tenancy row-level security (PGlite)', function () {
  this.timeout(120_000);
  let engine: VectorDatabase;
  let db: Database;

  before(async () => {
    engine = await startVectorDatabase();
    // The first migration with rows written before the second (a user's message without tenancy: tenant '').
    await engine.exec(up(aiStateMigrationSql()));
    await engine.exec(`INSERT INTO fw_ai_conversation_messages (tenant, user_id, conversation, message) VALUES ('', 'ann', 'default', '{"role":"user","content":"before"}')`);
    await engine.exec(up(aiStateTenancyMigrationSql(tenantTable)) + appRoleSql());
    db = engine.database();
    enableRowLevelSecurity();
  });
  after(async () => {
    disableRowLevelSecurity();
    await engine?.stop();
  });

  it("tenant B never reads tenant A's memory, even naming A's tenant in the query", async () => {
    const memory = postgresMemory(db);
    await runWithTenant({ id: 'acme' }, () => memory.append({ tenantId: 'acme', userId: 'ann' }, 'default', [{ role: 'user', content: 'acme secret' }]));
    expect(await runWithTenant({ id: 'acme' }, () => memory.load({ tenantId: 'acme', userId: 'ann' }, 'default', 10))).to.deep.equal([{ role: 'user', content: 'acme secret' }]);
    // Globex asks for acme's rows by key: row-level security answers nothing.
    expect(await runWithTenant({ id: 'globex' }, () => memory.load({ tenantId: 'acme', userId: 'ann' }, 'default', 10))).to.deep.equal([]);
    // Nor can it write under acme's name, nor clear acme's conversation.
    const forged = await runWithTenant({ id: 'globex' }, () => memory.append({ tenantId: 'acme', userId: 'ann' }, 'default', [{ role: 'user', content: 'forged' }])).catch((e: unknown) => e);
    expect((forged as Error).message).to.match(/row-level security/);
    await runWithTenant({ id: 'globex' }, () => memory.clear({ tenantId: 'acme', userId: 'ann' }, 'default'));
    expect(await runWithTenant({ id: 'acme' }, () => memory.load({ tenantId: 'acme', userId: 'ann' }, 'default', 10))).to.have.length(1);
    // The row written before the migration (tenant '') is no tenant's.
    expect(await runWithTenant({ id: 'acme' }, () => memory.load({ userId: 'ann' }, 'default', 10))).to.deep.equal([]);
    const rows = await engine.query<{ tenant: string }>('SELECT tenant FROM fw_ai_conversation_messages ORDER BY id');
    expect(rows.rows.map((r) => r.tenant)).to.deep.equal(['', 'acme']);
  });

  it('counts a budget subject per tenant', async () => {
    const store = new PostgresBudgetStore(db);
    const window = new Date('2026-11-01T00:00:00Z');
    await runWithTenant({ id: 'acme' }, () => store.add('user:ann', window, 100));
    await runWithTenant({ id: 'acme' }, () => store.add('user:ann', window, 50));
    await runWithTenant({ id: 'globex' }, () => store.add('user:ann', window, 7));
    expect(await runWithTenant({ id: 'acme' }, () => store.used('user:ann', window))).to.equal(150);
    expect(await runWithTenant({ id: 'globex' }, () => store.used('user:ann', window))).to.equal(7);
    const rows = await engine.query<{ tenant_id: string; tokens: string }>('SELECT tenant_id, tokens::text FROM fw_ai_token_usage ORDER BY tenant_id');
    expect(rows.rows).to.deep.equal([{ tenant_id: 'acme', tokens: '150' }, { tenant_id: 'globex', tokens: '7' }]);
  });

  it('has a down section that restores the first migration', async () => {
    disableRowLevelSecurity();
    try {
      // One subject's counters in two tenants cannot share the old key: they go first (the down says so).
      await engine.exec('DELETE FROM fw_ai_token_usage');
      await engine.exec(down(aiStateTenancyMigrationSql(tenantTable)));
      const { rows } = await engine.query<{ relrowsecurity: boolean }>("SELECT relrowsecurity FROM pg_class WHERE relname IN ('fw_ai_conversation_messages', 'fw_ai_token_usage')");
      expect(rows.map((r) => r.relrowsecurity)).to.deep.equal([false, false]);
      await engine.exec(up(aiStateTenancyMigrationSql(tenantTable)));
    } finally {
      enableRowLevelSecurity();
    }
  });
});
