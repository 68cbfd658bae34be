import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { expect } from 'chai';
import { Stack, type CfnResource } from 'aws-cdk-lib';
import { Match } from 'aws-cdk-lib/assertions';
import type { AppDefinition } from '@framework/core';
import { POSTGRES_VERSIONS, SDK_CLIENT_SERVICES } from '../src/index.js';
import { functionNamed, permissionsOf, resourcesOf, synthesize, type Synthesized } from './helpers/synth-once.js';

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

/** Each stage is loaded and synthesized once for the whole file (CDK synth is the slow part). */
const synthesized = new Map<string, { app: AppDefinition; synthesized: Synthesized }>();
async function synthesizeExample(stage: string): Promise<{ app: AppDefinition; synthesized: Synthesized }> {
  let done = synthesized.get(stage);
  if (!done) {
    const app = await loadExample(stage);
    done = { app, synthesized: synthesize(app) };
    synthesized.set(stage, done);
  }
  return done;
}

describe('the example app (examples/tasks-api), stage prod', () => {
  let app: AppDefinition;
  let prod: Synthesized;

  before(async function () {
    this.timeout(240_000);
    // The example is another package of the repository; without it there is nothing to check here.
    if (!fs.existsSync(path.join(exampleDir, 'fw.config.ts'))) this.skip();
    ({ app, synthesized: prod } = await synthesizeExample('prod'));
  });

  it("names functions, queue and schedule as the core README's naming table says", () => {
    for (const unit of app.units) functionNamed(prod, unit.functionName);
    expect(app.units.map((u) => u.functionName)).to.include.members(['tasks-api-prod-fn-task-summary', 'tasks-api-prod-queue-task-events', 'tasks-api-prod-cron-daily-summary']);
    prod.template.hasResourceProperties('AWS::SQS::Queue', { QueueName: 'tasks-api-prod-task-events', VisibilityTimeout: 5, RedrivePolicy: Match.objectLike({ maxReceiveCount: 2 }) });
    prod.template.hasResourceProperties('AWS::Scheduler::Schedule', { Name: 'tasks-api-prod-cron-daily-summary', ScheduleExpression: 'cron(0 7 * * ? *)', ScheduleExpressionTimezone: 'Etc/UTC' });
  });

  it('gives the API-key pepper secret (one, generated) to the functions that create API keys, not to GET /health', () => {
    const secrets = resourcesOf(prod, 'AWS::SecretsManager::Secret').filter((s) => /ApiKeysPepper/.test(s.logicalId));
    expect(secrets).to.have.length(1);
    expect(secrets[0]!.properties.GenerateSecretString).to.deep.include({ ExcludePunctuation: true });
    const routeOf = (key: string) => app.routes.find((r) => r.routeKey === key)!.functionName;
    for (const key of ['POST /api-keys', 'GET /tasks']) {
      expect(functionNamed(prod, routeOf(key)).properties, key).to.have.nested.property('Environment.Variables.FW_API_KEYS_PEPPER_SECRET_ARN');
      expect(permissionsOf(prod, routeOf(key)).actions, key).to.include('secretsmanager:GetSecretValue');
    }
    expect(functionNamed(prod, routeOf('GET /health')).properties).to.not.have.nested.property('Environment.Variables.FW_API_KEYS_PEPPER_SECRET_ARN');
    expect(permissionsOf(prod, routeOf('GET /health')).actions.filter((a) => a.startsWith('secretsmanager:'))).to.deep.equal([]);
  });

  it("gives every function the plans of fw.config.ts's billing as data (FW_BILLING_PLANS), as fw dev does", () => {
    expect(app.billing?.defaultPlan).to.equal('free');
    for (const unit of app.units) {
      const variables = (functionNamed(prod, unit.functionName).properties.Environment as { Variables: Record<string, unknown> }).Variables;
      expect(JSON.parse(String(variables['FW_BILLING_PLANS'])), unit.functionName).to.deep.equal(app.billing);
    }
  });

  it('gives the integrations vault key (one) to the functions that register and deliver webhooks, not to GET /health', () => {
    expect(resourcesOf(prod, 'AWS::KMS::Key').filter((k) => /IntegrationsVault/.test(k.logicalId))).to.have.length(1);
    const routeOf = (key: string) => app.routes.find((r) => r.routeKey === key)!.functionName;
    const consumer = app.queues.find((q) => q.id === 'webhooks')!.functionName;
    for (const name of [routeOf('POST /webhook-endpoints'), consumer]) {
      expect(functionNamed(prod, name).properties, name).to.have.nested.property('Environment.Variables.FW_INTEGRATIONS_KMS_KEY_ID');
      expect(permissionsOf(prod, name).actions, name).to.include.members(['kms:GenerateDataKey', 'kms:Decrypt']);
    }
    expect(functionNamed(prod, routeOf('GET /health')).properties).to.not.have.nested.property('Environment.Variables.FW_INTEGRATIONS_KMS_KEY_ID');
    expect(permissionsOf(prod, routeOf('GET /health')).actions.filter((a) => a.startsWith('kms:'))).to.deep.equal([]);
  });

  it('protects the routes with the scopes their handlers declare, and leaves /health public', () => {
    const all = resourcesOf(prod, 'AWS::ApiGatewayV2::Route').map((r) => [r.properties.RouteKey as string, r.properties] as const);
    // HTTP route keys are "METHOD /path"; the WebSocket API's are `$connect`, `$disconnect` and actions.
    const routes = new Map(all.filter(([key]) => key.includes(' ')));
    expect([...routes.keys()]).to.have.members(app.routes.map((r) => r.routeKey));
    // the WebSocket API: src/ws/$connect.ts, src/ws/chat.ts, and $disconnect on the framework's registry function
    expect(all.map(([key]) => key).filter((key) => !key.includes(' '))).to.have.members(['$connect', '$disconnect', 'chat']);
    expect(routes.get('GET /health')).to.include({ AuthorizationType: 'NONE' });
    // GET /tasks accepts API keys too (auth: ['jwt', 'apiKey']): behind the API-key Lambda authorizer (keys and tokens);
    // its function checks the scopes.
    expect(routes.get('GET /tasks')).to.include({ AuthorizationType: 'CUSTOM' });
    expect(routes.get('POST /api-keys')).to.deep.include({ AuthorizationType: 'JWT' });
    expect(routes.get('GET /tasks')).not.to.have.property('AuthorizationScopes');
    expect(routes.get('POST /tasks')).to.deep.include({ AuthorizationType: 'JWT' });
    expect(routes.get('DELETE /tasks/{id}')).to.deep.include({ AuthorizationType: 'JWT', AuthorizationScopes: ['tasks-api/tasks:admin'] });
  });

  describe('auth: groups, trigger, resource server scopes and app clients from the one declaration (config/security.ts)', () => {
    const propertiesOf = (type: string) => resourcesOf(prod, type).map((r) => r.properties);

    it('makes one Cognito group per role', () => {
      expect(propertiesOf('AWS::Cognito::UserPoolGroup').map((g) => [g.GroupName, g.Description]).sort()).to.deep.equal([
        ['admin', 'Manages every task'],
        ['member', 'Reads tasks'],
      ]);
    });

    it('wires the pre token generation trigger (V2) with the roles\' and the clients\' scopes', () => {
      const trigger = functionNamed(prod, app.auth!.preTokenGenerationFunctionName);
      const pool = propertiesOf('AWS::Cognito::UserPool')[0]!;
      expect(pool.LambdaConfig).to.deep.equal({ PreTokenGenerationConfig: { LambdaArn: { 'Fn::GetAtt': [trigger.logicalId, 'Arn'] }, LambdaVersion: 'V2_0' } });
      const variables = (trigger.properties.Environment as { Variables: Record<string, string> }).Variables;
      expect(JSON.parse(variables.FW_AUTH_SCOPE_RULES!)).to.deep.equal({
        roles: { admin: ['tasks:read', 'tasks:write', 'tasks:admin'], member: ['tasks:read'] },
        clients: { web: ['tasks:read', 'tasks:write', 'tasks:admin'], reporting: ['tasks:read'] },
        everyUser: [],
      });
    });

    it('declares every scope on the resource server', () => {
      const [server] = propertiesOf('AWS::Cognito::UserPoolResourceServer');
      expect(server!.Identifier).to.equal('tasks-api');
      expect(server!.Scopes).to.deep.equal([
        { ScopeName: 'tasks:read', ScopeDescription: 'Read tasks' },
        { ScopeName: 'tasks:write', ScopeDescription: 'Create and update tasks' },
        { ScopeName: 'tasks:admin', ScopeDescription: 'Delete any task' },
      ]);
    });

    it('preloads the pool\'s JWKS for the $connect authorizer (FW_AUTH_JWKS from the deploy-time fetch)', () => {
      const [jwks] = resourcesOf(prod, 'Custom::FrameworkAuthJwks');
      expect(jwks, 'Custom::FrameworkAuthJwks').to.not.equal(undefined);
      const authorizer = functionNamed(prod, 'tasks-api-prod-auth-ws-connect');
      expect((authorizer.properties.Environment as { Variables: Record<string, unknown> }).Variables.FW_AUTH_JWKS).to.deep.equal({ 'Fn::GetAtt': [jwks!.logicalId, 'Jwks'] });
    });

    it('preloads the pool\'s JWKS for the function of a route that accepts API keys (it verifies tokens itself)', () => {
      // The route functions live in nested stacks: the deploy-time JWKS reaches them as a parameter of the nested stack.
      const jwksOf = (routeKey: string) => (functionNamed(prod, app.routes.find((r) => r.routeKey === routeKey)!.functionName).properties.Environment as { Variables: Record<string, unknown> }).Variables.FW_AUTH_JWKS;
      expect(JSON.stringify(jwksOf('GET /tasks'))).to.match(/Jwks/);
      expect(jwksOf('GET /health')).to.equal(undefined);
    });

    it('makes one app client per declared client, with its flows and scopes', () => {
      // A custom scope is `Fn::Join` of the resource server's Ref (its identifier) and `/<scope>`: resolved here.
      const [server] = resourcesOf(prod, 'AWS::Cognito::UserPoolResourceServer');
      const scopeOf = (scope: unknown): unknown => {
        const parts = (scope as { 'Fn::Join'?: [string, [{ Ref: string }, string]] })['Fn::Join']?.[1];
        return parts && parts[0].Ref === server!.logicalId ? `${String(server!.properties.Identifier)}${parts[1]}` : scope;
      };
      const clients = new Map(propertiesOf('AWS::Cognito::UserPoolClient').map((c) => [c.ClientName, { ...c, AllowedOAuthScopes: (c.AllowedOAuthScopes as unknown[]).map(scopeOf) }]));
      expect([...clients.keys()].sort()).to.deep.equal(['reporting', 'web']);
      expect(clients.get('web')).to.deep.include({ AllowedOAuthFlows: ['code'], CallbackURLs: ['http://localhost:5173/callback'], AllowedOAuthScopes: ['openid', 'email', 'profile', 'tasks-api/tasks:read', 'tasks-api/tasks:write', 'tasks-api/tasks:admin'] });
      expect(clients.get('reporting')).to.deep.include({ AllowedOAuthFlows: ['client_credentials'], GenerateSecret: true, AllowedOAuthScopes: ['tasks-api/tasks:read'] });
    });
  });

  it('carries the prod preset sizes', () => {
    const settings = app.config.settings;
    for (const unit of app.routes) expect(functionNamed(prod, unit.functionName).properties).to.deep.include({ MemorySize: settings.functions.memorySize, Runtime: settings.functions.runtime, Architectures: [settings.functions.architecture] });
    prod.template.resourceCountIs('AWS::EC2::NatGateway', settings.network.natGateways);
    if (settings.databases.engine === 'aurora-serverless-v2') {
      prod.template.hasResourceProperties('AWS::RDS::DBCluster', { ServerlessV2ScalingConfiguration: { MinCapacity: settings.databases.minCapacity, MaxCapacity: settings.databases.maxCapacity } });
    }
  });

  describe('deployment order: pending migrations are applied before new code takes traffic', () => {
    /** Logical ids a resource of the parent template waits for: DependsOn, Ref and Fn::GetAtt. */
    const waitsFor = (logicalId: string): Set<string> => {
      const resource = (prod.template.toJSON() as { Resources: Record<string, { DependsOn?: string | string[] }> }).Resources[logicalId];
      if (!resource) throw new Error(`no resource ${logicalId} in the parent template`);
      const out = new Set<string>([resource.DependsOn ?? []].flat());
      JSON.stringify(resource, (key, value: unknown) => {
        if (key === 'Ref' && typeof value === 'string') out.add(value);
        if (key === 'Fn::GetAtt' && Array.isArray(value) && typeof value[0] === 'string') out.add(value[0]);
        return value;
      });
      return out;
    };
    /** The parent-template resource CloudFormation updates a function through: itself, or its route shard. */
    const deployedThrough = (functionName: string): { logicalId: string; inShard: boolean } => {
      const cfn = prod.stack.functions.get(functionName)!.function.node.defaultChild as CfnResource;
      const owner = Stack.of(cfn);
      if (owner === prod.stack) return { logicalId: prod.stack.getLogicalId(cfn), inShard: false };
      const shard = [...prod.stack.routeShards.values()].find((s) => s === owner)!;
      return { logicalId: prod.stack.getLogicalId(shard.nestedStackResource!), inShard: true };
    };
    let migration: string;

    before(function () {
      const migrations = Object.keys(prod.template.findResources('Custom::FrameworkMigrations'));
      // The example declares a database with migrations: a missing migration resource is a regression, not a skip.
      expect(migrations).to.have.length(1);
      migration = migrations[0]!;
    });

    it('finds the functions that use the database from their bundles', () => {
      const users = app.units.filter((u) => prod.stack.needs.get(u.functionName)?.database).map((u) => u.functionName);
      expect(users).to.include.members(['tasks-api-prod-route-get-tasks', 'tasks-api-prod-route-post-tasks', 'tasks-api-prod-fn-task-summary', 'tasks-api-prod-queue-task-events']);
      expect(users).to.not.include('tasks-api-prod-route-get-health');
    });

    it('makes every database-using function, directly or through its route shard, depend on the migration custom resource', () => {
      const users = app.units.filter((u) => prod.stack.needs.get(u.functionName)?.database);
      expect(users.some((u) => u.kind === 'route')).to.equal(true);
      expect(users.some((u) => u.kind !== 'route')).to.equal(true);
      for (const unit of users) {
        const { logicalId, inShard } = deployedThrough(unit.functionName);
        expect(inShard, unit.functionName).to.equal(unit.kind === 'route');
        expect(prod.template.toJSON().Resources[logicalId].DependsOn, `${unit.functionName} (through ${logicalId})`).to.include(migration);
      }
    });

    it('lets functions and shards that do not use the database deploy without waiting', () => {
      const dependents = Object.entries(prod.template.toJSON().Resources as Record<string, { DependsOn?: string[] }>)
        .filter(([, r]) => (r.DependsOn ?? []).includes(migration))
        .map(([id]) => id);
      const users = app.units.filter((u) => prod.stack.needs.get(u.functionName)?.database).map((u) => deployedThrough(u.functionName).logicalId);
      // The API-key authorizer reads fw_api_keys: it waits too.
      const authorizer = functionNamed(prod, prod.stack.apiKeyAuthorizer!.function.unit.functionName).logicalId;
      expect(new Set(dependents)).to.deep.equal(new Set([...users, authorizer]));
      // The migration function itself runs before the dependency, so it cannot wait for it.
      const migrate = functionNamed(prod, app.databases[0]!.migrationFunctionName);
      expect(dependents).to.not.include(migrate.logicalId);
    });

    it('has no cycle: the migration custom resource never waits for a function or shard that waits for it', () => {
      const users = new Set(app.units.filter((u) => prod.stack.needs.get(u.functionName)?.database).map((u) => deployedThrough(u.functionName).logicalId));
      const seen = new Set<string>();
      const pending = [migration];
      while (pending.length) {
        const id = pending.pop()!;
        if (seen.has(id)) continue;
        seen.add(id);
        for (const next of waitsFor(id)) if (next in prod.template.toJSON().Resources) pending.push(next);
      }
      for (const user of users) expect(seen.has(user), user).to.equal(false);
      // The migration runs after the database it migrates exists.
      expect([...seen].some((id) => prod.template.toJSON().Resources[id].Type === 'AWS::RDS::DBCluster' || prod.template.toJSON().Resources[id].Type === 'AWS::RDS::DBInstance')).to.equal(true);
    });
  });
});

describe('the example app (examples/tasks-api): a first deploy of dev and prod', () => {
  const stages = new Map<string, { app: AppDefinition; synthesized: Synthesized }>();

  before(async function () {
    this.timeout(240_000);
    if (!fs.existsSync(path.join(exampleDir, 'fw.config.ts'))) this.skip();
    for (const stage of ['dev', 'prod']) stages.set(stage, await synthesizeExample(stage));
  });
  after(() => {
    for (const { synthesized: s } of synthesized.values()) s.cleanup();
    synthesized.clear();
  });

  const route = (stage: string, key: string) => stages.get(stage)!.app.routes.find((r) => r.routeKey === key)!.functionName;
  /** Interface endpoint service names of a template (`com.amazonaws.<region>.<name>` → `<name>`). */
  const interfaceEndpoints = (s: Synthesized) =>
    resourcesOf(s, 'AWS::EC2::VPCEndpoint')
      .filter((e) => e.properties.VpcEndpointType === 'Interface')
      .map((e) => String(e.properties.ServiceName).split('.').pop()!);

  it('dev (free: no NAT) gives every function in the VPC a route to every AWS service it calls', () => {
    const { app, synthesized: dev } = stages.get('dev')!;
    dev.template.resourceCountIs('AWS::EC2::NatGateway', 0);
    const endpoints = new Set([...interfaceEndpoints(dev), 's3', 'dynamodb']);
    let inVpc = 0;
    for (const unit of app.units) {
      if (!functionNamed(dev, unit.functionName).properties.VpcConfig) continue;
      inVpc++;
      for (const use of dev.stack.services.get(unit.functionName)!) expect(endpoints.has(use.service), `${unit.functionName} ${use.reason}`).to.equal(true);
    }
    expect(inVpc).to.be.greaterThan(0);
    // POST /tasks uses the database (so it sits in an isolated subnet) and sends to task-events: SQS has an endpoint.
    expect(functionNamed(dev, route('dev', 'POST /tasks')).properties).to.have.property('VpcConfig');
    expect(dev.stack.services.get(route('dev', 'POST /tasks'))!.map((u) => u.service)).to.include.members(['secretsmanager', 'sqs', 'dynamodb']);
    // kms: the webhook functions (in the VPC: they read the endpoints' table) decrypt signing secrets with the vault key.
    // lambda: POST /members invokes member-account, which calls Cognito from outside the VPC (Cognito's endpoint serves
    // no request for a pool with a domain, and the example's web client gives its pool one).
    expect(interfaceEndpoints(dev)).to.have.members(['kms', 'lambda', 'secretsmanager', 'sqs']);
    expect(interfaceEndpoints(dev)).not.to.include('cognito-idp');
    const memberAccount = app.units.find((u) => u.file === 'src/functions/member-account.ts')!.functionName;
    expect(functionNamed(dev, memberAccount).properties).not.to.have.property('VpcConfig');
    expect(permissionsOf(dev, memberAccount).actions).to.include('cognito-idp:AdminCreateUser');
    expect(functionNamed(dev, route('dev', 'POST /members')).properties).to.have.property('VpcConfig');
    for (const key of ['POST /members', 'DELETE /members/{email}']) expect(permissionsOf(dev, route('dev', key)).actions.filter((a) => a.startsWith('cognito-idp:')), key).to.deep.equal([]);
    expect(Object.values(SDK_CLIENT_SERVICES)).to.include.members(interfaceEndpoints(dev));
  });

  it('prod (NAT gateways) needs no interface endpoint', () => {
    const { synthesized: prod } = stages.get('prod')!;
    expect(interfaceEndpoints(prod)).to.deep.equal([]);
    expect(prod.stack.network!.hasNat).to.equal(true);
  });

  it('gives GET /health no queue, function or bucket permission', () => {
    for (const stage of ['dev', 'prod']) {
      const { actions, statements } = permissionsOf(stages.get(stage)!.synthesized, route(stage, 'GET /health'));
      expect(actions.filter((a) => /^(sqs|lambda|s3|dynamodb|secretsmanager):/.test(a)), stage).to.deep.equal([]);
      expect(statements.filter((st) => st.Effect === 'Allow' && !/^xray:/.test([st.Action].flat()[0]!)), stage).to.deep.equal([]);
    }
  });

  it('keeps what POST /tasks needs: send to task-events and the WebSocket fan-out queue only (it publishes task.created), the credentials, the idempotency and connection registry tables, ManageConnections; nothing else', () => {
    for (const stage of ['dev', 'prod']) {
      const s = stages.get(stage)!.synthesized;
      const { statements, actions } = permissionsOf(s, route(stage, 'POST /tasks'));
      const send = statements.filter((st) => [st.Action].flat().includes('sqs:SendMessage'));
      expect(send, stage).to.have.length(2);
      expect(send.map((st) => JSON.stringify(st.Resource)).join()).to.match(/Queuetaskevents/).and.to.match(/FanoutQueue/);
      expect(JSON.stringify(send.map((st) => st.Resource))).to.not.match(/DeadLetter/);
      expect(actions).to.include.members(['secretsmanager:GetSecretValue', 'dynamodb:PutItem', 'execute-api:ManageConnections']);
      expect(actions.filter((a) => /^(lambda|s3):/.test(a)), stage).to.deep.equal([]);
    }
  });

  it('has POST /tasks load the DynamoDB and SQS clients during init (in Lambda), and GET /health none', () => {
    const s = stages.get('dev')!.synthesized;
    const firstLine = (name: string) => fs.readFileSync(s.stack.bundle.functions.get(name)!.entryFile, 'utf8').split('\n')[0]!;
    expect(firstLine(route('dev', 'POST /tasks'))).to.include('if(process.env.AWS_LAMBDA_FUNCTION_NAME)await Promise.all([import("@aws-sdk/client-sqs"),import("@aws-sdk/client-dynamodb")]);');
    expect(firstLine(route('dev', 'GET /health'))).to.not.include('AWS_LAMBDA_FUNCTION_NAME');
  });

  it('lets the attachment routes read (GET) or read and write (POST) their bucket, and only the cron and the member routes invoke a function', () => {
    const s = stages.get('dev')!.synthesized;
    const list = permissionsOf(s, route('dev', 'GET /tasks/{id}/attachments')).actions;
    expect(list).to.include.members(['s3:GetObject*', 's3:List*']);
    expect(list.filter((a) => /^s3:(Put|Delete|Abort)/.test(a))).to.deep.equal([]);
    expect(permissionsOf(s, route('dev', 'POST /tasks/{id}/attachments')).actions).to.include.members(['s3:PutObject', 's3:DeleteObject*']);
    const app = stages.get('dev')!.app;
    const invokers = app.units.filter((u) => permissionsOf(s, u.functionName).actions.includes('lambda:InvokeFunction')).map((u) => u.functionName);
    expect(invokers.sort()).to.deep.equal(['tasks-api-dev-cron-daily-summary', route('dev', 'POST /members'), route('dev', 'DELETE /members/{email}')].sort());
    const senders = app.units.filter((u) => permissionsOf(s, u.functionName).actions.includes('sqs:SendMessage')).map((u) => u.functionName).sort();
    // PUT /tasks/{id}/assignee and the billing webhook (receipts) hand their committed notifications to the notify-outbox queue;
    // PUT /tasks/{id}/due sends task-events (the collection POST /ask searches is indexed there).
    // Every function importing @framework-pro/chat pushes to rooms, which deployed goes through the WebSocket API's
    // publish queue (the package's calls are unseen by the analysis, so the import grants them).
    const chatUnits = app.units.filter((u) => /\/chat\b|chat\//.test(u.file)).map((u) => u.functionName);
    expect(chatUnits.length).to.be.greaterThan(5);
    expect(senders).to.deep.equal([route('dev', 'POST /tasks'), route('dev', 'PUT /tasks/{id}'), route('dev', 'PUT /tasks/{id}/due'), route('dev', 'PUT /tasks/{id}/assignee'), route('dev', 'POST /billing/webhook'), ...chatUnits].sort());
  });

  it('deploys a database engine version aws-cdk-lib does not deprecate, and a Cognito prefix unique per account', () => {
    const dev = stages.get('dev')!.synthesized;
    const prod = stages.get('prod')!.synthesized;
    dev.template.hasResourceProperties('AWS::RDS::DBInstance', { EngineVersion: POSTGRES_VERSIONS['17']!.instance.postgresFullVersion });
    prod.template.hasResourceProperties('AWS::RDS::DBCluster', { EngineVersion: POSTGRES_VERSIONS['17']!.aurora.auroraPostgresFullVersion });
    for (const [stage, s] of [['dev', dev], ['prod', prod]] as const) {
      const domain = Object.values(s.template.findResources('AWS::Cognito::UserPoolDomain'))[0] as { Properties: { Domain: unknown } };
      expect(JSON.stringify(domain.Properties.Domain)).to.equal(JSON.stringify({ 'Fn::Join': ['-', [`tasks-api-${stage}`, { 'Fn::Select': [0, { 'Fn::Split': ['-', { 'Fn::Select': [2, { 'Fn::Split': ['/', { Ref: 'AWS::StackId' }] }] }] }] }]] }));
    }
  });
});
