import { expect } from 'chai';
import { z } from 'zod';
import { Database } from '@framework/data';
import { migrate, parseMigration } from '@framework/data/migrations';
import { runWithTenant } from '@framework/runtime';
import { billingMigrationSql, createBilling, definePlans } from '@framework-pro/billing';
import { startPglite, type RunningEngine } from '../../../data/test/support/pglite-server.js';
import { billingTokenMeter, createMockModel, createModel, defineAgent, defineTool } from '../../src/index.js';

const quiet = { debug() {}, info() {}, warn() {}, error() {}, child() { return quiet; }, isEnabled: () => false };
const plans = definePlans({ plans: { free: { currency: 'usd', features: { ai_tokens: { included: 1_000_000 } } } }, defaultPlan: 'free' });
const always = { start: new Date('2000-01-01T00:00:00Z'), end: new Date('3000-01-01T00:00:00Z') };

describe('token usage metered per tenant on @framework-pro/billing (PGlite)', () => {
  let engine: RunningEngine;
  let db: Database;
  before(async function () {
    this.timeout(120_000);
    engine = await startPglite();
    db = new Database({ connection: engine.connection, maxConnections: 4 });
    await migrate(db, { migrations: [parseMigration('0020_billing.sql', billingMigrationSql())] });
  });
  after(async () => {
    await db?.end();
    await engine?.stop();
  });

  it("counts every model call's tokens, agent steps included, on the tenant's ai_tokens meter", async () => {
    const billing = createBilling({ plans, db });
    const noop = defineTool({ description: 'does nothing', parameters: z.object({}), execute: () => 'ok' });
    const mock = createMockModel({
      script: (call) => (call.tools.length && call.toolResults.length === 0 ? { toolCalls: [{ tool: 'noop', args: {} }], usage: { inputTokens: 30, outputTokens: 5 } } : { text: 'done', usage: { inputTokens: 40, outputTokens: 10 } }),
    });
    const model = createModel(mock, { usage: billingTokenMeter(billing, { db }), logger: quiet });
    await runWithTenant({ id: 'acme' }, () => model.generate({ prompt: 'one call' })); // 50
    await runWithTenant({ id: 'acme' }, () => defineAgent({ model, tools: { noop }, logger: quiet }).run({ prompt: 'two steps' })); // 35 + 50
    await runWithTenant({ id: 'globex' }, () => model.generate({ prompt: 'other tenant' })); // 50
    expect(await billing.usage('acme', 'ai_tokens', always)).to.equal(135);
    expect(await billing.usage('globex', 'ai_tokens', always)).to.equal(50);
  });
});
