import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { expect } from 'chai';
import { Match } from 'aws-cdk-lib/assertions';
import type { AppDefinition } from '@framework/core';
import { functionNamed, resourcesOf, synthesize, type Synthesized } from './helpers/synth-once.js';

const exampleDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..', 'examples', 'tasks-api');

/** Loads the example's fw.config.ts for a stage the way `fw` does: project root and stage from the environment. */
async function loadExample(stage: string): Promise<AppDefinition> {
  const saved = { root: process.env.FW_PROJECT_ROOT, stage: process.env.FW_STAGE };
  process.env.FW_PROJECT_ROOT = exampleDir;
  process.env.FW_STAGE = stage;
  try {
    const mod = (await import(`${pathToFileURL(path.join(exampleDir, 'fw.config.ts')).href}?stage=${stage}`)) as { default: AppDefinition };
    return mod.default;
  } finally {
    for (const [key, value] of [['FW_PROJECT_ROOT', saved.root], ['FW_STAGE', saved.stage]] as const) {
      if (value === undefined) delete process.env[key];
      else process.env[key] = value;
    }
  }
}

describe('the example app (examples/tasks-api), stage prod', () => {
  let app: AppDefinition;
  let prod: Synthesized;

  before(async function () {
    this.timeout(240_000);
    // The example is another package of the repository; without it there is nothing to check here.
    if (!fs.existsSync(path.join(exampleDir, 'fw.config.ts'))) this.skip();
    app = await loadExample('prod');
    prod = synthesize(app);
  });
  after(() => prod?.cleanup());

  it('names functions, queue and schedule as the spec naming table says', () => {
    for (const unit of app.units) functionNamed(prod, unit.functionName);
    expect(app.units.map((u) => u.functionName)).to.include.members(['tasks-api-prod-fn-task-summary', 'tasks-api-prod-queue-task-events', 'tasks-api-prod-cron-daily-summary']);
    prod.template.hasResourceProperties('AWS::SQS::Queue', { QueueName: 'tasks-api-prod-task-events', VisibilityTimeout: 5, RedrivePolicy: Match.objectLike({ maxReceiveCount: 2 }) });
    prod.template.hasResourceProperties('AWS::Scheduler::Schedule', { Name: 'tasks-api-prod-cron-daily-summary', ScheduleExpression: 'cron(0 7 * * ? *)', ScheduleExpressionTimezone: 'Etc/UTC' });
  });

  it('protects the routes with the scopes their handlers declare, and leaves /health public', () => {
    const routes = new Map(resourcesOf(prod, 'AWS::ApiGatewayV2::Route').map((r) => [r.properties.RouteKey, r.properties]));
    expect([...routes.keys()]).to.have.members(app.routes.map((r) => r.routeKey));
    expect(routes.get('GET /health')).to.include({ AuthorizationType: 'NONE' });
    expect(routes.get('GET /tasks')).to.deep.include({ AuthorizationType: 'JWT', AuthorizationScopes: ['tasks-api/tasks:read'] });
    expect(routes.get('POST /tasks')).to.deep.include({ AuthorizationType: 'JWT' });
  });

  it('carries the prod preset sizes', () => {
    const settings = app.config.settings;
    for (const unit of app.routes) expect(functionNamed(prod, unit.functionName).properties).to.deep.include({ MemorySize: settings.functions.memorySize, Runtime: settings.functions.runtime, Architectures: [settings.functions.architecture] });
    prod.template.resourceCountIs('AWS::EC2::NatGateway', settings.network.natGateways);
    if (settings.databases.engine === 'aurora-serverless-v2') {
      prod.template.hasResourceProperties('AWS::RDS::DBCluster', { ServerlessV2ScalingConfiguration: { MinCapacity: settings.databases.minCapacity, MaxCapacity: settings.databases.maxCapacity } });
    }
  });
});
