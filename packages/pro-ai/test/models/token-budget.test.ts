import { expect } from 'chai';
import { runWithTenant } from '@framework/runtime';
import { AiError, AiHttpError, createMockModel, createModel, createTokenBudget } from '../../src/index.js';

const answer = { text: 'ok', usage: { inputTokens: 60, outputTokens: 40 } };

describe('token budget', () => {
  it('refuses a call with 429 AI_BUDGET_EXCEEDED once the tenant spent its budget, without calling the model', async () => {
    let now = Date.UTC(2026, 10, 23, 10, 0, 0);
    const mock = createMockModel({ script: () => answer });
    const model = createModel(mock, { budget: createTokenBudget({ limit: 150, window: 'day', now: () => now }) });
    await runWithTenant({ id: 'acme' }, async () => {
      await model.generate({ prompt: 'one' });
      await model.generate({ prompt: 'two' }); // 100 used < 150: allowed, now 200
      const error = await model.generate({ prompt: 'three' }).catch((e: unknown) => e);
      expect(error).to.be.instanceOf(AiHttpError).and.include({ code: 'AI_BUDGET_EXCEEDED', status: 429 });
      expect((error as AiHttpError).headers['retry-after']).to.equal(String(14 * 3600));
    });
    expect(mock.calls).to.have.length(2);
    // Another tenant has its own budget; the next day the first one has a fresh one.
    await runWithTenant({ id: 'globex' }, () => model.generate({ prompt: 'x' }));
    now += 86_400_000;
    await runWithTenant({ id: 'acme' }, () => model.generate({ prompt: 'x' }));
    expect(mock.calls).to.have.length(4);
  });

  it('counts per user within the tenant when per is user', async () => {
    const model = createModel(createMockModel({ script: () => answer }), { budget: createTokenBudget({ limit: 100, per: 'user' }) });
    await runWithTenant({ id: 'acme' }, async () => {
      await model.generate({ prompt: 'x', user: 'ann' });
      const refused = await model.generate({ prompt: 'x', user: 'ann' }).catch((e: unknown) => e);
      expect(refused).to.include({ code: 'AI_BUDGET_EXCEEDED' });
      expect((await model.generate({ prompt: 'x', user: 'bob' })).text).to.equal('ok');
    });
    // The same user id in another tenant is another person.
    expect((await runWithTenant({ id: 'globex' }, () => model.generate({ prompt: 'x', user: 'ann' }))).text).to.equal('ok');
  });

  it('refuses a limit that cannot work', () => {
    expect(() => createTokenBudget({ limit: 0 })).to.throw(AiError, 'limit').with.property('code', 'FW_ERR_AI_INVALID_OPTIONS');
  });
});
