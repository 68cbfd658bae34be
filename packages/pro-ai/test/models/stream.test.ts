import { expect } from 'chai';
import { AiHttpError, createMockModel, createModel, createTokenBudget, streamToWebSocket, type AiStreamMessage, type ModelUsage } from '../../src/index.js';

const quiet = { debug() {}, info() {}, warn() {}, error() {}, child() { return quiet; }, isEnabled: () => false };

describe('streaming', () => {
  it('streams the text in parts and reports the usage once the stream ended', async () => {
    const records: ModelUsage[] = [];
    const model = createModel(createMockModel({ responses: [{ text: 'three little words', usage: { inputTokens: 4, outputTokens: 3 } }] }), { usage: { record: (u) => void records.push(u) } });
    const stream = model.stream({ prompt: 'say it' });
    const parts: string[] = [];
    for await (const part of stream.textStream) parts.push(part);
    expect(parts.length).to.be.greaterThan(1);
    expect(parts.join('')).to.equal('three little words');
    expect(await stream.usage).to.deep.equal({ inputTokens: 4, outputTokens: 3, totalTokens: 7 });
    expect(records.map((r) => r.totalTokens)).to.deep.equal([7]);
  });

  it('sends deltas and a final message to a WebSocket connection', async () => {
    const model = createModel(createMockModel({ responses: ['hello streaming world'] }));
    const sent: Array<[string, AiStreamMessage]> = [];
    const text = await streamToWebSocket(model.stream({ prompt: 'x' }), 'conn-1', { id: 'a1', send: async (to, message) => void sent.push([to, message]) });
    expect(text).to.equal('hello streaming world');
    const deltas = sent.filter(([, m]) => m.type === 'ai.delta').map(([, m]) => (m as { delta: string }).delta);
    expect(deltas.join('')).to.equal(text);
    expect(sent.at(-1)![0]).to.equal('conn-1');
    expect(sent.at(-1)![1]).to.include({ type: 'ai.done', id: 'a1', text });
  });

  it('ends the stream with the error that stopped it (a spent budget stays a 429), and tells the WebSocket client', async () => {
    const model = createModel(createMockModel({ script: () => ({ text: 'long answer', usage: { inputTokens: 100, outputTokens: 100 } }) }), { logger: quiet, budget: createTokenBudget({ limit: 10 }) });
    await model.generate({ prompt: 'spend it' });
    const stream = model.stream({ prompt: 'again' });
    const error = await (async () => {
      for await (const _part of stream.textStream) void _part;
    })().catch((e: unknown) => e);
    expect(error).to.be.instanceOf(AiHttpError).and.include({ code: 'AI_BUDGET_EXCEEDED', status: 429 });
    expect(await Promise.resolve(stream.usage).catch((e: unknown) => e)).to.include({ code: 'AI_BUDGET_EXCEEDED' });

    const sent: AiStreamMessage[] = [];
    const failed = await streamToWebSocket(model.stream({ prompt: 'once more' }), 'conn-2', { id: 'a2', send: async (_to, m) => void sent.push(m) }).catch((e: unknown) => e);
    expect(failed).to.include({ code: 'AI_BUDGET_EXCEEDED' });
    expect(sent.at(-1)).to.include({ type: 'ai.error', id: 'a2', code: 'AI_BUDGET_EXCEEDED' });
  });

  it('tells the WebSocket client an internal failure without its message', async () => {
    const model = createModel(createMockModel({ script: () => ({ throw: new Error('db password is hunter2') }) }), { logger: quiet });
    const sent: AiStreamMessage[] = [];
    const failed = await streamToWebSocket(model.stream({ prompt: 'x' }), 'conn-3', { id: 'a3', send: async (_to, m) => void sent.push(m) }).catch((e: unknown) => e);
    expect((failed as Error).message).to.contain('hunter2');
    expect(sent).to.deep.equal([{ type: 'ai.error', id: 'a3', code: 'INTERNAL', message: 'The answer failed.' }]);
  });
});
