import { expect } from 'chai';
import { generateText, stepCountIs, tool } from 'ai';
import { z } from 'zod';
import { AiError, createMockModel, createModel } from '../../src/index.js';

describe('createMockModel', () => {
  it('answers its responses in order, as generate would from a real model', async () => {
    const model = createModel(createMockModel({ responses: ['first', { text: 'second' }] }));
    expect((await model.generate({ prompt: 'a' })).text).to.equal('first');
    expect((await model.generate({ prompt: 'b' })).text).to.equal('second');
  });

  it('echoes the last user message without options (fw dev)', async () => {
    const model = createModel({ provider: 'mock' });
    expect((await model.generate({ prompt: 'hello there' })).text).to.equal('mock: hello there');
  });

  it('answers a structured object that the schema validates', async () => {
    const model = createModel({ provider: 'mock', responses: [{ object: { title: 'Pay rent', priority: 2 } }] });
    const schema = z.object({ title: z.string(), priority: z.number().int() });
    const { object, usage } = await model.generateObject({ prompt: 'make a task', schema });
    expect(object).to.deep.equal({ title: 'Pay rent', priority: 2 });
    expect(usage.totalTokens).to.be.greaterThan(0);
  });

  it('refuses an object that does not match the schema with FW_ERR_AI_NO_OBJECT', async () => {
    const model = createModel({ provider: 'mock', responses: [{ object: { title: 42 } }] });
    const error = await model.generateObject({ prompt: 'x', schema: z.object({ title: z.string() }) }).catch((e: unknown) => e);
    expect(error).to.be.instanceOf(AiError).and.include({ code: 'FW_ERR_AI_NO_OBJECT' });
  });

  it('makes scripted tool calls and sees their results on the next call', async () => {
    const mock = createMockModel({
      script: (call) => (call.toolResults.length === 0 ? { toolCalls: [{ tool: 'add', args: { a: 2, b: 3 } }] } : `sum is ${String(call.toolResults[0]!.output)}`),
    });
    const result = await generateText({
      model: mock,
      prompt: 'add 2 and 3',
      tools: { add: tool({ inputSchema: z.object({ a: z.number(), b: z.number() }), execute: ({ a, b }) => a + b }) },
      stopWhen: stepCountIs(3),
    });
    expect(result.text).to.equal('sum is 5');
    expect(mock.calls).to.have.length(2);
  });

  it('says so when called more often than it has responses', async () => {
    const model = createModel(createMockModel({ responses: ['only one'] }));
    await model.generate({ prompt: 'a' });
    const error = await model.generate({ prompt: 'b' }).catch((e: unknown) => e);
    expect(error).to.be.instanceOf(AiError).and.include({ code: 'FW_ERR_AI_MOCK_EXHAUSTED' });
  });
});
