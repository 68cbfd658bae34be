import { expect } from 'chai';
import { z } from 'zod';
import { startStandIn, withEnv, type StandIn } from '../../../runtime/test/fixtures/stand-in-server.js';
import { createMockModel, createModel, defineAgent, functionTool } from '../../src/index.js';

const quiet = { debug() {}, info() {}, warn() {}, error() {}, child() { return quiet; }, isEnabled: () => false };

describe('functionTool: the app\'s standalone functions as tools (through invoke)', () => {
  let devServer: StandIn;
  let restore: () => void;

  beforeEach(async () => {
    // A stand-in for `fw dev`'s /_dev/invoke endpoint, answering as the runtime's invoke contract says.
    devServer = await startStandIn((req, res) => {
      const name = decodeURIComponent(req.url.replace('/_dev/invoke/', ''));
      if (name === 'acme-dev-fn-tasks-overdue') {
        const { before } = JSON.parse(req.body) as { before: string };
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify([{ id: 't7', title: 'File taxes', due: before }]));
      } else {
        res.writeHead(200, { 'content-type': 'application/json', 'x-amz-function-error': 'Unhandled' }).end('{"errorType":"Error","errorMessage":"report service down"}');
      }
    });
    restore = withEnv({ FW_PROJECT: 'acme', FW_STAGE: 'dev', FW_DEV_ENDPOINT: devServer.url });
  });
  afterEach(async () => {
    restore();
    await devServer.close();
  });

  it('invokes the function with the validated arguments and gives the model its result', async () => {
    const overdue = functionTool({ function: 'tasks/overdue', description: 'Lists overdue tasks', parameters: z.object({ before: z.string() }) });
    const mock = createMockModel({
      script: (call) => (call.toolResults.length === 0 ? { toolCalls: [{ tool: 'overdue', args: { before: '2026-11-23' } }] } : `overdue: ${(call.toolResults[0]!.output as Array<{ title: string }>).map((t) => t.title).join(', ')}`),
    });
    const result = await defineAgent({ model: createModel(mock, { logger: quiet }), tools: { overdue }, logger: quiet }).run({ prompt: 'what is overdue?' });
    expect(result.text).to.equal('overdue: File taxes');
    expect(devServer.requests.map((r) => [r.url, JSON.parse(r.body) as unknown])).to.deep.equal([['/_dev/invoke/acme-dev-fn-tasks-overdue', { before: '2026-11-23' }]]);
  });

  it('reports a failing function to the model as the tool\'s error', async () => {
    const report = functionTool({ function: 'reports/monthly', description: 'Monthly report', parameters: z.object({}) });
    const mock = createMockModel({ script: (call) => (call.toolResults.length === 0 ? { toolCalls: [{ tool: 'report', args: {} }] } : call.toolResults[0]!.isError ? 'the report failed' : 'ok') });
    const result = await defineAgent({ model: createModel(mock, { logger: quiet }), tools: { report }, logger: quiet }).run({ prompt: 'report' });
    expect(result.text).to.equal('the report failed');
    expect(result.steps[0]!.toolCalls[0]!.error).to.contain('report service down');
  });
});
