import { expect } from 'chai';
import { runWithTenant } from '@framework/runtime';
import { MockLanguageModelV3 } from 'ai/test';
import { z } from 'zod';
import { AiError, createMockModel, createModel, defineAgent, defineTool, recentAgentTraces, type ModelUsage } from '../../src/index.js';

const quiet = { debug() {}, info() {}, warn() {}, error() {}, child() { return quiet; }, isEnabled: () => false };

const lookupTask = defineTool({
  description: 'Looks a task up by id',
  parameters: z.object({ id: z.string() }),
  execute: ({ id }) => (id === 't1' ? { id, title: 'Pay rent', due: '2026-11-01' } : Promise.reject(new Error(`no task ${id}`))),
});

describe('defineAgent', () => {
  it('calls a tool with validated arguments, gives the model its result, and traces every step', async () => {
    const records: ModelUsage[] = [];
    const mock = createMockModel({
      script: (call) => (call.toolResults.length === 0 ? { toolCalls: [{ tool: 'lookupTask', args: { id: 't1' } }] } : `The task is ${(call.toolResults[0]!.output as { title: string }).title}`),
    });
    const agent = defineAgent({ name: 'tasks', model: createModel(mock, { usage: { record: (u) => void records.push(u) }, logger: quiet }), tools: { lookupTask }, logger: quiet });
    const result = await runWithTenant({ id: 'acme' }, () => agent.run({ prompt: 'What is task t1?', user: 'ann' }));
    expect(result.text).to.equal('The task is Pay rent');
    expect(result.stoppedBy).to.equal('done');
    expect(result.steps).to.have.length(2);
    expect(result.steps[0]!.toolCalls).to.deep.equal([{ tool: 'lookupTask', args: { id: 't1' }, result: { id: 't1', title: 'Pay rent', due: '2026-11-01' } }]);
    expect(result.usage.totalTokens).to.equal(result.steps[0]!.usage.totalTokens + result.steps[1]!.usage.totalTokens);
    // Each step is a model call counted for the tenant and the user.
    expect(records.map((r) => [r.tenantId, r.userId])).to.deep.equal([['acme', 'ann'], ['acme', 'ann']]);
    expect(recentAgentTraces().at(-1)).to.include({ runId: result.trace.runId, agent: 'tasks', stoppedBy: 'done', tenantId: 'acme', userId: 'ann' });
  });

  it('reports a tool error to the model as the tool\'s result instead of crashing', async () => {
    const mock = createMockModel({
      script: (call) => (call.toolResults.length === 0 ? { toolCalls: [{ tool: 'lookupTask', args: { id: 'nope' } }] } : call.toolResults[0]!.isError ? `Sorry: ${String(call.toolResults[0]!.output)}` : 'found'),
    });
    const agent = defineAgent({ model: createModel(mock, { logger: quiet }), tools: { lookupTask }, logger: quiet });
    const result = await agent.run({ prompt: 'What is task nope?' });
    expect(result.stoppedBy).to.equal('done');
    expect(result.text).to.equal('Sorry: no task nope');
    expect(result.steps[0]!.toolCalls[0]).to.deep.include({ tool: 'lookupTask', error: 'no task nope' });
  });

  it('reports arguments that do not match the tool\'s schema to the model too', async () => {
    let executed = false;
    const strict = defineTool({ description: 'needs a number', parameters: z.object({ n: z.number() }), execute: () => void (executed = true) });
    const mock = createMockModel({ script: (call) => (call.toolResults.length === 0 ? { toolCalls: [{ tool: 'strict', args: { n: 'one' } }] } : call.toolResults[0]!.isError ? 'bad args' : 'ran') });
    const result = await defineAgent({ model: createModel(mock, { logger: quiet }), tools: { strict }, logger: quiet }).run({ prompt: 'x' });
    expect(result.text).to.equal('bad args');
    expect(executed).to.equal(false);
  });

  it('stops at the step limit when the model keeps calling tools', async () => {
    const mock = createMockModel({ script: () => ({ toolCalls: [{ tool: 'lookupTask', args: { id: 't1' } }] }) });
    const result = await defineAgent({ model: createModel(mock, { logger: quiet }), tools: { lookupTask }, maxSteps: 3, logger: quiet }).run({ prompt: 'loop' });
    expect(result.stoppedBy).to.equal('step-limit');
    expect(result.steps).to.have.length(3);
    expect(mock.calls).to.have.length(3);
    expect(result.text).to.equal('');
  });

  it('stops when the time budget within the function\'s remaining time is spent', async () => {
    // The clock is the test's: each tool call takes 40 s of it; the function has 62 s left, 2 s are kept in reserve.
    let clock = 1_000_000;
    const slow = defineTool({ description: 'slow', parameters: z.object({}), execute: () => void (clock += 40_000) });
    const mock = createMockModel({ script: () => ({ toolCalls: [{ tool: 'slow', args: {} }] }) });
    const agent = defineAgent({ model: createModel(mock, { logger: quiet }), tools: { slow }, maxSteps: 10, now: () => clock, logger: quiet });
    const result = await agent.run({ prompt: 'go', ctx: { getRemainingTimeInMillis: () => 62_000 } });
    expect(result.stoppedBy).to.equal('time-budget');
    expect(result.steps).to.have.length(2);
    expect(result.steps[1]!.durationMs).to.equal(40_000);
  });

  it('aborts a model call still running when the time budget ends', async () => {
    const hanging = new MockLanguageModelV3({
      doGenerate: (call) => new Promise((_resolve, reject) => call.abortSignal?.addEventListener('abort', () => reject(call.abortSignal!.reason as Error))),
    });
    const result = await defineAgent({ model: createModel(hanging, { logger: quiet }), timeBudgetMs: 50, logger: quiet }).run({ prompt: 'anyone?' });
    expect(result).to.include({ stoppedBy: 'time-budget', text: '' });
    expect(result.steps).to.have.length(0);
  });

  it('refuses options that cannot work', () => {
    expect(() => defineAgent({ model: createMockModel(), maxSteps: 0 })).to.throw(AiError, 'maxSteps').with.property('code', 'FW_ERR_AI_INVALID_OPTIONS');
  });
});
