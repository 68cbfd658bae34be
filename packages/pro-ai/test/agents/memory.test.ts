import { expect } from 'chai';
import { runWithTenant } from '@framework/runtime';
import { z } from 'zod';
import { AiError, createMockModel, createModel, createTokenBudget, defineAgent, defineTool, inMemoryMemory, PostgresBudgetStore, postgresMemory, type MockCall } from '../../src/index.js';
import { ENGINES, useAiDatabase } from '../support/ai-database.js';

const quiet = { debug() {}, info() {}, warn() {}, error() {}, child() { return quiet; }, isEnabled: () => false };

/** A model that answers with what it remembers: the user messages of the conversation before this one. */
function rememberingModel() {
  return createModel(
    createMockModel({
      script: (call: MockCall) => {
        const earlier = call.prompt.filter((m) => m.role === 'user').slice(0, -1).map((m) => (m.content as Array<{ text?: string }>)[0]?.text);
        return `you said before: ${earlier.length ? earlier.join(' | ') : 'nothing'}`;
      },
    }),
    { logger: quiet },
  );
}

for (const engine of ENGINES) {
  describe(`agent memory in PostgreSQL (${engine.name})`, () => {
    const db = useAiDatabase(engine);

    it('keeps a conversation per user: the next run continues it, another user sees none of it', async () => {
      const agent = defineAgent({ model: rememberingModel(), memory: postgresMemory(db()), logger: quiet });
      await runWithTenant({ id: 'acme' }, async () => {
        expect((await agent.run({ prompt: 'my cat is Tom', user: 'ann' })).text).to.equal('you said before: nothing');
        expect((await agent.run({ prompt: 'what is my cat?', user: 'ann' })).text).to.equal('you said before: my cat is Tom');
        expect((await agent.run({ prompt: 'what is my cat?', user: 'bob' })).text).to.equal('you said before: nothing');
        // Another conversation of the same user starts afresh.
        expect((await agent.run({ prompt: 'hi', user: 'ann', conversation: 'other' })).text).to.equal('you said before: nothing');
      });
      // The same user id in another tenant is another person.
      expect((await runWithTenant({ id: 'globex' }, () => agent.run({ prompt: 'hi', user: 'ann' }))).text).to.equal('you said before: nothing');
    });

    it('replays a finished turn whole, tool call and result included, in the next run', async () => {
      const lookup = defineTool({ description: 'Looks a task up', parameters: z.object({ id: z.string() }), execute: ({ id }) => ({ id, title: 'Pay rent' }) });
      const mock = createMockModel({ script: (call) => (call.lastUserText === 'find t1' && call.toolResults.length === 0 ? { toolCalls: [{ tool: 'lookup', args: { id: 't1' } }] } : 'ok') });
      const agent = defineAgent({ model: createModel(mock, { logger: quiet }), tools: { lookup }, memory: postgresMemory(db()), logger: quiet });
      await agent.run({ prompt: 'find t1', user: 'dee' });
      await agent.run({ prompt: 'and now?', user: 'dee' });
      const replayed = mock.calls.at(-1)!.prompt.map((m) => m.role);
      expect(replayed).to.deep.equal(['user', 'assistant', 'tool', 'assistant', 'user']);
    });

    it('loads only the last messages, and forgets a cleared conversation', async () => {
      const memory = postgresMemory(db());
      const owner = { tenantId: 'acme', userId: 'cy' };
      await memory.append(owner, 'c', [
        { role: 'user', content: 'one' },
        { role: 'assistant', content: 'two' },
        { role: 'user', content: 'three' },
        { role: 'assistant', content: 'four' },
      ]);
      expect((await memory.load(owner, 'c', 2)).map((m) => m.content)).to.deep.equal(['three', 'four']);
      await memory.clear(owner, 'c');
      expect(await memory.load(owner, 'c', 10)).to.deep.equal([]);
    });

    it('counts budgets in the shared table: a second process (a new store) sees the tokens spent', async () => {
      const answer = { text: 'ok', usage: { inputTokens: 70, outputTokens: 30 } };
      const budget = () => createTokenBudget({ limit: 150, store: new PostgresBudgetStore(db()) });
      const first = createModel(createMockModel({ script: () => answer }), { budget: budget(), logger: quiet });
      const second = createModel(createMockModel({ script: () => answer }), { budget: budget(), logger: quiet });
      await runWithTenant({ id: 'initech' }, async () => {
        await first.generate({ prompt: 'a' });
        await second.generate({ prompt: 'b' });
        const refused = await first.generate({ prompt: 'c' }).catch((e: unknown) => e);
        expect(refused).to.include({ code: 'AI_BUDGET_EXCEEDED', status: 429 });
      });
    });
  });
}

describe('agent memory (in this process)', () => {
  it('needs the user a conversation belongs to', async () => {
    const agent = defineAgent({ model: rememberingModel(), memory: inMemoryMemory(), logger: quiet });
    const error = await agent.run({ prompt: 'hi' }).catch((e: unknown) => e);
    expect(error).to.be.instanceOf(AiError).and.include({ code: 'FW_ERR_AI_INVALID_OPTIONS' });
  });

  it('stores a turn cut by the step limit as the question and a note, never a dangling tool call', async () => {
    const memory = inMemoryMemory();
    const model = createModel(createMockModel({ script: (call) => (call.tools.length ? { toolCalls: [{ tool: 'noop', args: {} }] } : 'x') }), { logger: quiet });
    const noop = defineTool({ description: 'does nothing', parameters: z.object({}), execute: () => 'done' });
    await defineAgent({ model, tools: { noop }, maxSteps: 2, memory, logger: quiet }).run({ prompt: 'loop', user: 'ann' });
    const stored = await memory.load({ userId: 'ann' }, 'default', 10);
    expect(stored.map((m) => m.role)).to.deep.equal(['user', 'assistant']);
    expect(String(stored[1]!.content)).to.contain('step limit');
  });
});
