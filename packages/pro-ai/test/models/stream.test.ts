import { expect } from 'chai';
import { createMockModel, createModel, streamToWebSocket, type AiStreamMessage, type ModelUsage } from '../../src/index.js';

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
});
