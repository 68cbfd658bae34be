import { expect } from 'chai';
import fixture from '../fixtures/acme/fw.config.js';
import { PRESETS, type AppDefinition } from '../../src/index.js';

// The acceptance lines of the foundation issue, on the fixture project laid out as the README shows (project `acme`).
describe('the acme fixture', () => {
  // Given the fixture's config, built for stage dev whatever FW_STAGE the shell has
  const dev: AppDefinition = fixture.forStage('dev');

  it('yields PUT /tasks/{id} from src/routes/tasks/[id]/put.ts', () => {
    // When the route of the dynamic segment is looked up
    const route = dev.routes.find((r) => r.file === 'src/routes/tasks/[id]/put.ts');

    // Then it has the gateway's shape
    expect(route).to.include({ method: 'PUT', path: '/tasks/{id}', routeKey: 'PUT /tasks/{id}', functionName: 'acme-dev-route-put-tasks-id' });
    expect(route?.pathParams).to.deep.equal(['id']);
  });

  it('discovers every route file and nothing from src/lib', () => {
    expect(dev.routes.map((r) => r.routeKey).sort()).to.deep.equal(['GET /health', 'GET /tasks', 'POST /tasks', 'PUT /tasks/{id}']);
    expect(dev.units.map((u) => u.file)).not.to.include('src/lib/util.ts');
  });

  it('names src/functions/reports/daily.ts acme-dev-fn-reports-daily, with the intent timeout', () => {
    expect(dev.functions).to.have.length(1);
    expect(dev.functions[0]).to.include({ id: 'reports/daily', file: 'src/functions/reports/daily.ts', functionName: 'acme-dev-fn-reports-daily', timeout: 60, memorySize: 128 });
  });

  it('turns src/queues/emails.ts into queue acme-dev-emails, function acme-dev-queue-emails and a dead-letter queue', () => {
    const [queue] = dev.queues;
    expect(dev.queues).to.have.length(1);
    expect(queue).to.include({
      queueName: 'acme-dev-emails',
      functionName: 'acme-dev-queue-emails',
      deadLetterQueue: true,
      deadLetterQueueName: 'acme-dev-emails-dlq',
      batchSize: 5,
      maxReceiveCount: 4,
      // Default: six times the consumer timeout (free preset: 10 s), at least 30.
      visibilityTimeout: 60,
    });
    expect(queue?.variables.url).to.equal('FW_QUEUE_EMAILS_URL');
  });

  it('names the function and the rule of src/crons/cleanup.ts acme-dev-cron-cleanup', () => {
    const [cron] = dev.crons;
    expect(cron).to.include({ functionName: 'acme-dev-cron-cleanup', ruleName: 'acme-dev-cron-cleanup', expression: 'cron(0 3 * * ? *)', retryAttempts: 2, enabled: true });
  });

  it('injects every intent output variable and the identity of the stage', () => {
    expect(dev.environment.FW_PROJECT).to.deep.equal({ kind: 'static', value: 'acme' });
    expect(dev.environment.FW_STAGE).to.deep.equal({ kind: 'static', value: 'dev' });
    expect(dev.environment.LOG_LEVEL).to.deep.equal({ kind: 'static', value: PRESETS.free.logs.level });
    expect(dev.environment.FW_DB_MAIN_HOST).to.deep.equal({ kind: 'output', intent: 'databases', id: 'main', output: 'host' });
    expect(Object.keys(dev.environment)).to.include.members([
      'FW_DB_MAIN_PORT',
      'FW_DB_MAIN_NAME',
      'FW_DB_MAIN_SECRET_ARN',
      'FW_STORAGE_UPLOADS_BUCKET',
      'FW_STORAGE_UPLOADS_URL',
      'FW_QUEUE_EMAILS_URL',
      'FW_CACHE_SESSIONS_ENDPOINT',
      'FW_AUTH_ISSUER',
      'FW_AUTH_AUDIENCE',
      'FW_AUTH_USER_POOL_ID',
      'FW_AUTH_RESOURCE_SERVER',
      'FW_IDEMPOTENCY_TABLE',
    ]);
  });

  it('lists every Lambda function once in units, with unique names', () => {
    const names = dev.units.map((u) => u.functionName);
    expect(names).to.have.length(4 + 1 + 1 + 1);
    expect(new Set(names).size).to.equal(names.length);
  });

  describe("forStage('prod')", () => {
    // When the same app is built for prod (preset medium, functions.memorySize overridden to 1536)
    const prod = dev.forStage('prod');

    it('gives the prod names', () => {
      expect(prod.stage).to.equal('prod');
      expect(prod.functions[0]?.functionName).to.equal('acme-prod-fn-reports-daily');
      expect(prod.queues[0]).to.include({ queueName: 'acme-prod-emails', functionName: 'acme-prod-queue-emails', deadLetterQueueName: 'acme-prod-emails-dlq' });
      expect(prod.crons[0]).to.include({ functionName: 'acme-prod-cron-cleanup', ruleName: 'acme-prod-cron-cleanup' });
      expect(prod.routes.map((r) => r.functionName)).to.include('acme-prod-route-put-tasks-id');
    });

    it("gives the medium preset's values, with the override on top", () => {
      expect(prod.config.preset).to.equal('medium');
      expect(prod.config.settings.functions.memorySize).to.equal(1536);
      expect(prod.config.settings.functions.timeout).to.equal(PRESETS.medium.functions.timeout);
      expect(prod.config.settings.databases).to.deep.equal(PRESETS.medium.databases);
      expect(prod.config.settings.logs).to.deep.equal(PRESETS.medium.logs);
      // Units without their own size take the stage's; the intent's own timeout still wins.
      expect(prod.queues[0]).to.include({ memorySize: 1536, timeout: PRESETS.medium.functions.timeout });
      expect(prod.functions[0]).to.include({ memorySize: 1536, timeout: 60 });
      expect(prod.environment.LOG_LEVEL).to.deep.equal({ kind: 'static', value: PRESETS.medium.logs.level });
    });

    it('reports where each value came from', () => {
      const source = (p: string) => prod.config.fields.find((f) => f.path === p)?.source;
      expect(source('functions.memorySize')).to.equal('override');
      expect(source('functions.timeout')).to.equal('preset:medium');
      expect(source('base.region')).to.equal('base');
    });

    it('leaves the dev definition unchanged', () => {
      expect(dev.stage).to.equal('dev');
      expect(dev.config.settings.functions.memorySize).to.equal(PRESETS.free.functions.memorySize);
    });
  });

  it('rejects a stage that envs does not declare, and one named like an Object member', () => {
    for (const stage of ['staging', 'constructor', 'toString', '__proto__']) {
      expect(() => dev.forStage(stage), stage).to.throw(/has no environment/).with.property('name', 'ConfigError');
    }
  });
});
