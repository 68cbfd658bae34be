import { expect } from 'chai';
import { createLogger, runWithTenant } from '@framework/runtime';
import { billingUsageSink, createMockModel, createModel, type ModelUsage } from '../../src/index.js';

describe('token usage per call', () => {
  it('reports each call\'s tokens with tenant and user to the usage sink and in the log line', async () => {
    const records: ModelUsage[] = [];
    const lines: string[] = [];
    const model = createModel(createMockModel({ responses: [{ text: 'ok', usage: { inputTokens: 12, outputTokens: 3 } }] }), {
      usage: { record: (u) => void records.push(u) },
      logger: createLogger({ sink: (line) => lines.push(line) }),
    });
    const result = await runWithTenant({ id: 'acme' }, () => model.generate({ prompt: 'hi', user: 'user-1' }));
    expect(result.usage).to.deep.equal({ inputTokens: 12, outputTokens: 3, totalTokens: 15 });
    expect(records).to.deep.equal([{ provider: 'mock', modelId: 'mock-model', inputTokens: 12, outputTokens: 3, totalTokens: 15, tenantId: 'acme', userId: 'user-1' }]);
    const logged = lines.map((l) => JSON.parse(l) as Record<string, unknown>).find((l) => l.message === 'ai model call');
    expect(logged?.data).to.include({ inputTokens: 12, outputTokens: 3, totalTokens: 15, tenantId: 'acme', userId: 'user-1', modelId: 'mock-model' });
  });

  it('meters tokens per tenant through billing\'s track, each record with its own idempotency key', async () => {
    const tracked: Array<{ meter: string; quantity: number; options: Record<string, unknown> }> = [];
    const sink = billingUsageSink((meter, quantity, options) => void tracked.push({ meter, quantity, options }));
    const model = createModel(createMockModel({ responses: [{ text: 'a', usage: { inputTokens: 10, outputTokens: 5 } }, { text: 'b', usage: { inputTokens: 1, outputTokens: 1 } }] }), { usage: sink });
    await runWithTenant({ id: 'acme' }, () => model.generate({ prompt: 'x' }));
    await runWithTenant({ id: 'globex' }, () => model.generate({ prompt: 'y' }));
    expect(tracked.map((t) => [t.meter, t.quantity, t.options.tenantId])).to.deep.equal([
      ['ai_tokens', 15, 'acme'],
      ['ai_tokens', 2, 'globex'],
    ]);
    expect(tracked[0]!.options.idempotencyKey).to.be.a('string').and.not.equal(tracked[1]!.options.idempotencyKey);
  });

  it('does not fail the call when a usage sink fails (logged instead)', async () => {
    const lines: string[] = [];
    const model = createModel(createMockModel({ responses: ['fine'] }), {
      usage: { record: () => Promise.reject(new Error('meter down')) },
      logger: createLogger({ sink: (line) => lines.push(line) }),
    });
    expect((await model.generate({ prompt: 'x' })).text).to.equal('fine');
    expect(lines.some((l) => l.includes('ai usage not recorded'))).to.equal(true);
  });
});
