import * as fs from 'node:fs';
import * as path from 'node:path';
import { expect } from 'chai';
import { Match } from 'aws-cdk-lib/assertions';
import { DEV_ONLY_ENV, schedulerEvent, type AppDefinition } from '@framework/core';
import { DEPLOYED_ONLY_ENV } from '../src/index.js';
import { allIntentsApp } from './fixtures/all-intents/app.js';
import { functionNamed, resourcesOf, synthesize, type Synthesized } from './helpers/synth-once.js';

// One synth per stage, shared by every test below (CDK synth is the slow part).
describe('FrameworkStack on an app using every intent', () => {
  let app: AppDefinition;
  let dev: Synthesized;
  let prod: Synthesized;

  before(function () {
    this.timeout(240_000);
    app = allIntentsApp('dev');
    dev = synthesize(app);
    prod = synthesize(app.forStage('prod'));
  });
  after(() => {
    dev?.cleanup();
    prod?.cleanup();
  });

  describe('names', () => {
    it("gives every function the name of the core README's naming table", () => {
      const names = resourcesOf(dev, 'AWS::Lambda::Function').map((f) => f.properties.FunctionName).filter((n): n is string => typeof n === 'string');
      expect(names).to.include.members(['acme-dev-fn-reports-daily', 'acme-dev-queue-emails', 'acme-dev-cron-cleanup']);
      expect(names).to.include.members(app.units.map((u) => u.functionName));
      expect(names.filter((n) => n.startsWith('acme-dev-route-'))).to.have.length(app.routes.length);
    });

    it('names the queue, its dead-letter queue, the schedule and the stack from the model', () => {
      dev.template.hasResourceProperties('AWS::SQS::Queue', { QueueName: 'acme-dev-emails' });
      dev.template.hasResourceProperties('AWS::SQS::Queue', { QueueName: 'acme-dev-emails-dlq' });
      dev.template.hasResourceProperties('AWS::Scheduler::Schedule', { Name: 'acme-dev-cron-cleanup' });
      expect(dev.stack.stackName).to.equal('acme-dev');
      expect(prod.stack.stackName).to.equal('acme-prod');
    });
  });

  describe('HTTP API', () => {
    it('has one route per route file, with the model route keys', () => {
      const keys = resourcesOf(dev, 'AWS::ApiGatewayV2::Route').map((r) => r.properties.RouteKey);
      expect(keys).to.have.members(app.routes.map((r) => r.routeKey));
      expect(keys).to.include.members(['GET /health', 'GET /tasks', 'POST /tasks', 'PUT /tasks/{id}', 'POST /files']);
    });

    it('puts each handler declared scopes on its route, prefixed by the resource server, and leaves public routes open', () => {
      const routes = new Map(resourcesOf(dev, 'AWS::ApiGatewayV2::Route').map((r) => [r.properties.RouteKey, r.properties]));
      expect(routes.get('GET /health')).to.include({ AuthorizationType: 'NONE' });
      expect(routes.get('GET /health')).to.not.have.property('AuthorizationScopes');
      expect(routes.get('GET /tasks')).to.deep.include({ AuthorizationType: 'JWT', AuthorizationScopes: ['acme/tasks:read'] });
      expect(routes.get('POST /tasks')).to.deep.include({ AuthorizationScopes: ['acme/tasks:write'] });
      expect(routes.get('PUT /tasks/{id}')).to.deep.include({ AuthorizationScopes: ['acme/tasks:write', 'acme/tasks:read'] });
      expect(routes.get('POST /files')).to.deep.include({ AuthorizationScopes: ['acme/files:write'] });
    });

    it('has a JWT authorizer whose issuer is the user pool and whose audience is the app clients', () => {
      dev.template.hasResourceProperties('AWS::ApiGatewayV2::Authorizer', {
        AuthorizerType: 'JWT',
        IdentitySource: ['$request.header.Authorization'],
        JwtConfiguration: {
          Issuer: { 'Fn::Join': ['', Match.arrayWith([Match.stringLikeRegexp('https://cognito-idp\\.')])] },
          Audience: Match.arrayWith([{ Ref: Match.stringLikeRegexp('AuthUserPoolClientweb') }, { Ref: Match.stringLikeRegexp('AuthUserPoolClientworker') }]),
        },
      });
    });

    it('throttles the $default stage as the preset says and writes access logs', () => {
      dev.template.hasResourceProperties('AWS::ApiGatewayV2::Stage', { StageName: '$default', AutoDeploy: true, DefaultRouteSettings: { ThrottlingRateLimit: 10, ThrottlingBurstLimit: 20 }, AccessLogSettings: Match.objectLike({}) });
      prod.template.hasResourceProperties('AWS::ApiGatewayV2::Stage', { DefaultRouteSettings: { ThrottlingRateLimit: 2000, ThrottlingBurstLimit: 4000 } });
    });
  });

  describe('functions', () => {
    it('gets exactly the variables fw dev injects (minus the dev-only ones), plus source maps', () => {
      for (const unit of app.units) {
        const variables = (functionNamed(dev, unit.functionName).properties.Environment as { Variables: Record<string, unknown> }).Variables;
        const expected = [...Object.keys(app.environment).filter((k) => !DEV_ONLY_ENV.includes(k)), ...Object.keys(unit.environment), ...Object.keys(DEPLOYED_ONLY_ENV)];
        expect(Object.keys(variables), unit.functionName).to.have.members(expected);
        for (const [key, value] of Object.entries(app.environment)) if (value.kind === 'static') expect(variables[key]).to.equal(value.value);
      }
      const daily = (functionNamed(dev, 'acme-dev-fn-reports-daily').properties.Environment as { Variables: Record<string, unknown> }).Variables;
      expect(daily.REPORT_FORMAT).to.equal('pdf');
    });

    it('takes runtime, architecture, memory, timeout and tracing from the preset and the intents', () => {
      expect(functionNamed(dev, 'acme-dev-route-get-health').properties).to.deep.include({ Runtime: 'nodejs22.x', Architectures: ['arm64'], MemorySize: 128, Timeout: 10, Handler: 'index.main' });
      expect(functionNamed(dev, 'acme-dev-route-get-health').properties).to.not.have.property('TracingConfig');
      expect(functionNamed(prod, 'acme-prod-route-get-health').properties).to.deep.include({ MemorySize: 1536, Timeout: 30, TracingConfig: { Mode: 'Active' } });
      expect(functionNamed(dev, 'acme-dev-fn-reports-daily').properties).to.deep.include({ MemorySize: 1024, Timeout: 120, Description: 'Daily report' });
      expect(functionNamed(dev, 'acme-dev-queue-emails').properties).to.deep.include({ Timeout: 20 });
    });

    it('gives each function a log group with the preset retention', () => {
      const groups = resourcesOf(prod, 'AWS::Logs::LogGroup').filter((g) => typeof g.properties.LogGroupName === 'string');
      expect(groups.map((g) => g.properties.LogGroupName)).to.include.members(app.forStage('prod').units.map((u) => `/aws/lambda/${u.functionName}`));
      for (const g of groups) expect(g.properties.RetentionInDays).to.equal(180);
      for (const g of resourcesOf(dev, 'AWS::Logs::LogGroup')) expect(g.properties.RetentionInDays).to.equal(7);
    });

    it('places in the VPC only the functions whose bundle uses the database', () => {
      expect(functionNamed(dev, 'acme-dev-route-get-tasks').properties).to.have.property('VpcConfig');
      expect(functionNamed(dev, 'acme-dev-route-post-tasks').properties).to.have.property('VpcConfig');
      for (const name of ['acme-dev-route-get-health', 'acme-dev-route-post-files', 'acme-dev-fn-reports-daily', 'acme-dev-cron-cleanup']) {
        expect(functionNamed(dev, name).properties, name).to.not.have.property('VpcConfig');
      }
    });

    it('grants storage only to the function that uses it, and the idempotency table to the idempotent one', () => {
      const policies = resourcesOf(dev, 'AWS::IAM::Policy').map((p) => JSON.stringify(p.properties));
      const withS3 = policies.filter((p) => p.includes('s3:PutObject'));
      expect(withS3).to.have.length(1);
      expect(withS3[0]).to.include('routepostfiles');
      const withTable = policies.filter((p) => p.includes('dynamodb:PutItem'));
      expect(withTable).to.have.length(1);
      expect(withTable[0]).to.include('routeposttasks');
      const withSecret = policies.filter((p) => p.includes('secretsmanager:GetSecretValue'));
      // The two routes that use pg, and the migration function.
      expect(withSecret).to.have.length(3);
    });
  });

  describe('intents', () => {
    it('creates the queue with the model visibility timeout, a dead-letter queue after maxReceiveCount, and a batch mapping reporting item failures', () => {
      dev.template.hasResourceProperties('AWS::SQS::Queue', {
        QueueName: 'acme-dev-emails',
        VisibilityTimeout: 120,
        MessageRetentionPeriod: 4 * 86400,
        SqsManagedSseEnabled: true,
        RedrivePolicy: { deadLetterTargetArn: { 'Fn::GetAtt': [Match.stringLikeRegexp('QueueemailsDeadLetterQueue'), 'Arn'] }, maxReceiveCount: 4 },
      });
      dev.template.hasResourceProperties('AWS::SQS::Queue', { QueueName: 'acme-dev-emails-dlq', MessageRetentionPeriod: 14 * 86400 });
      dev.template.hasResourceProperties('AWS::Lambda::EventSourceMapping', { BatchSize: 5, FunctionResponseTypes: ['ReportBatchItemFailures'], FunctionName: { Ref: Match.stringLikeRegexp('queueemails') } });
    });

    it('schedules the cron in UTC from its expression, retrying twice', () => {
      dev.template.hasResourceProperties('AWS::Scheduler::Schedule', {
        Name: 'acme-dev-cron-cleanup',
        ScheduleExpression: 'cron(0 3 * * ? *)',
        ScheduleExpressionTimezone: 'Etc/UTC',
        State: 'ENABLED',
        Target: Match.objectLike({ RetryPolicy: Match.objectLike({ MaximumRetryAttempts: 2 }) }),
      });
    });

    it("gives the cron's target core's Scheduler event as input, filled in by the scheduler (the event fw dev sends)", () => {
      const schedule = resourcesOf(dev, 'AWS::Scheduler::Schedule').find((r) => r.properties.Name === 'acme-dev-cron-cleanup')!;
      const input = (schedule.properties.Target as { Input: unknown }).Input;
      // The template joins the JSON text with the account and region of the stack.
      const render = (value: unknown): string => {
        if (typeof value === 'string') return value;
        const v = value as { 'Fn::Join'?: [string, unknown[]]; 'Ref'?: string };
        if (v['Fn::Join']) return v['Fn::Join'][1].map(render).join(v['Fn::Join'][0]);
        if (v.Ref === 'AWS::AccountId') return '111122223333';
        if (v.Ref === 'AWS::Region') return 'eu-west-1';
        throw new Error(`unexpected input part ${JSON.stringify(value)}`);
      };
      expect(JSON.parse(render(input))).to.deep.equal(
        schedulerEvent({ id: '<aws.scheduler.execution-id>', time: '<aws.scheduler.scheduled-time>', account: '111122223333', region: 'eu-west-1', scheduleArn: '<aws.scheduler.schedule-arn>' }),
      );
      expect(JSON.parse(render(input))).to.include({ 'source': 'aws.scheduler', 'detail-type': 'Scheduled Event', 'detail': '{}' });
    });

    it('creates the idempotency table with pk, ttl and on-demand billing', () => {
      dev.template.hasResourceProperties('AWS::DynamoDB::Table', {
        TableName: 'acme-dev-idempotency',
        KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH' }],
        AttributeDefinitions: [{ AttributeName: 'pk', AttributeType: 'S' }],
        TimeToLiveSpecification: { AttributeName: 'ttl', Enabled: true },
        BillingMode: 'PAY_PER_REQUEST',
      });
    });

    it('sizes the network by preset: free has no NAT gateway, medium two, both with S3 and DynamoDB gateway endpoints', () => {
      dev.template.resourceCountIs('AWS::EC2::NatGateway', 0);
      prod.template.resourceCountIs('AWS::EC2::NatGateway', 2);
      for (const s of [dev, prod]) {
        s.template.hasResourceProperties('AWS::EC2::VPCEndpoint', { VpcEndpointType: 'Gateway', ServiceName: Match.objectLike({ 'Fn::Join': ['', Match.arrayWith([Match.stringLikeRegexp('\\.s3$')])] }) });
        s.template.hasResourceProperties('AWS::EC2::VPCEndpoint', { VpcEndpointType: 'Gateway', ServiceName: Match.objectLike({ 'Fn::Join': ['', Match.arrayWith([Match.stringLikeRegexp('\\.dynamodb$')])] }) });
      }
      // Without NAT the database credentials are reached through an interface endpoint.
      dev.template.hasResourceProperties('AWS::EC2::VPCEndpoint', { VpcEndpointType: 'Interface', ServiceName: Match.stringLikeRegexp('secretsmanager') });
      prod.template.resourcePropertiesCountIs('AWS::EC2::VPCEndpoint', { VpcEndpointType: 'Interface' }, 0);
    });

    it('picks the database engine and size by preset, with generated credentials', () => {
      dev.template.hasResourceProperties('AWS::RDS::DBInstance', { DBInstanceClass: 'db.t4g.micro', AllocatedStorage: '20', Engine: 'postgres', EngineVersion: '17.9', DBName: 'main', StorageEncrypted: true, MultiAZ: false, BackupRetentionPeriod: 1 });
      dev.template.resourceCountIs('AWS::RDS::DBCluster', 0);
      prod.template.hasResourceProperties('AWS::RDS::DBCluster', { Engine: 'aurora-postgresql', EngineVersion: '17.9', DatabaseName: 'main', StorageEncrypted: true, DeletionProtection: true, BackupRetentionPeriod: 14, ServerlessV2ScalingConfiguration: { MinCapacity: 1, MaxCapacity: 16 } });
      prod.template.resourceCountIs('AWS::RDS::DBInstance', 2);
      dev.template.resourceCountIs('AWS::SecretsManager::Secret', 1);
    });

    it('makes the bucket private, encrypted and TLS-only, with lifecycle rules, CORS and a CDN with origin access control', () => {
      dev.template.hasResourceProperties('AWS::S3::Bucket', {
        PublicAccessBlockConfiguration: { BlockPublicAcls: true, BlockPublicPolicy: true, IgnorePublicAcls: true, RestrictPublicBuckets: true },
        BucketEncryption: { ServerSideEncryptionConfiguration: [{ ServerSideEncryptionByDefault: { SSEAlgorithm: 'AES256' } }] },
        LifecycleConfiguration: {
          Rules: Match.arrayWith([
            Match.objectLike({ Prefix: 'tmp/', ExpirationInDays: 1, AbortIncompleteMultipartUpload: { DaysAfterInitiation: 7 } }),
            Match.objectLike({ Id: 'abort-incomplete-uploads', AbortIncompleteMultipartUpload: { DaysAfterInitiation: 7 } }),
          ]),
        },
        CorsConfiguration: { CorsRules: [Match.objectLike({ AllowedOrigins: ['https://app.example.com'] })] },
      });
      dev.template.hasResourceProperties('AWS::S3::BucketPolicy', { PolicyDocument: { Statement: Match.arrayWith([Match.objectLike({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } })]) } });
      dev.template.resourceCountIs('AWS::CloudFront::OriginAccessControl', 1);
      dev.template.hasResourceProperties('AWS::CloudFront::Distribution', { DistributionConfig: Match.objectLike({ DefaultCacheBehavior: Match.objectLike({ ViewerProtocolPolicy: 'redirect-to-https' }) }) });
    });

    it('creates the user pool, a resource server with the security scopes and the app clients with their flows', () => {
      dev.template.hasResourceProperties('AWS::Cognito::UserPool', { UserPoolName: 'acme-dev-users', MfaConfiguration: 'OPTIONAL', Policies: { PasswordPolicy: Match.objectLike({ MinimumLength: 12 }) } });
      dev.template.hasResourceProperties('AWS::Cognito::UserPoolResourceServer', {
        Identifier: 'acme',
        Scopes: [
          { ScopeName: 'tasks:read', ScopeDescription: 'Read tasks' },
          { ScopeName: 'tasks:write', ScopeDescription: 'Write tasks' },
          { ScopeName: 'files:write', ScopeDescription: 'Upload files' },
        ],
      });
      dev.template.hasResourceProperties('AWS::Cognito::UserPoolClient', { ClientName: 'worker', GenerateSecret: true, AllowedOAuthFlows: ['client_credentials'], AllowedOAuthScopes: [{ 'Fn::Join': ['', [{ Ref: Match.stringLikeRegexp('ResourceServer') }, '/tasks:read']] }] });
      dev.template.hasResourceProperties('AWS::Cognito::UserPoolClient', { ClientName: 'web', AllowedOAuthFlows: ['code'], CallbackURLs: ['https://app.example.com/callback'] });
    });

    it('gives the hosted domain {project}-{stage} plus a suffix unique to the stack (so to the account and region)', () => {
      const stackUuidHead = { 'Fn::Select': [0, { 'Fn::Split': ['-', { 'Fn::Select': [2, { 'Fn::Split': ['/', { Ref: 'AWS::StackId' }] }] }] }] };
      dev.template.hasResourceProperties('AWS::Cognito::UserPoolDomain', { Domain: { 'Fn::Join': ['-', ['acme-dev', stackUuidHead]] } });
      prod.template.hasResourceProperties('AWS::Cognito::UserPoolDomain', { Domain: { 'Fn::Join': ['-', ['acme-prod', stackUuidHead]] } });
    });

    it('tells every function the resource server identifier, the only prefix its scope check accepts', () => {
      for (const unit of app.units) {
        const variables = (functionNamed(dev, unit.functionName).properties.Environment as { Variables: Record<string, unknown> }).Variables;
        expect(variables.FW_AUTH_RESOURCE_SERVER, unit.functionName).to.equal('acme');
      }
    });

    it('creates the serverless cache with the preset limits', () => {
      dev.template.hasResourceProperties('AWS::ElastiCache::ServerlessCache', { ServerlessCacheName: 'acme-dev-sessions', Engine: 'valkey', CacheUsageLimits: { DataStorage: { Maximum: 1, Unit: 'GB' }, ECPUPerSecond: { Maximum: 1000 } } });
      prod.template.hasResourceProperties('AWS::ElastiCache::ServerlessCache', { CacheUsageLimits: { DataStorage: { Maximum: 10, Unit: 'GB' }, ECPUPerSecond: { Maximum: 50000 } } });
      const variables = (functionNamed(dev, 'acme-dev-fn-reports-daily').properties.Environment as { Variables: Record<string, unknown> }).Variables;
      expect(JSON.stringify(variables.FW_CACHE_SESSIONS_ENDPOINT)).to.match(/^\{"Fn::Join":\["",\["rediss:\/\/",\{"Fn::GetAtt":\[".*","Endpoint\.Address"\]\},":",\{"Fn::GetAtt":\[".*","Endpoint\.Port"\]\}\]\]\}$/);
    });

    it('announces uploads under the prefix on the queue', () => {
      dev.template.hasResourceProperties('Custom::S3BucketNotifications', { NotificationConfiguration: { QueueConfigurations: [Match.objectLike({ Events: ['s3:ObjectCreated:*'], Filter: { Key: { FilterRules: [{ Name: 'prefix', Value: 'incoming/' }] } } })] } });
    });

    it('applies the database migrations on deploy through the migration function named by core', () => {
      const migrate = functionNamed(dev, 'acme-dev-migrate-main');
      expect(migrate.properties).to.have.property('VpcConfig');
      const bundle = dev.stack.bundle.migrations.get('main')!;
      expect(fs.readdirSync(path.join(bundle.directory, 'migrations'))).to.deep.equal(['0001_init.sql']);
      dev.template.hasResourceProperties('Custom::FrameworkMigrations', { DatabaseId: 'main', MigrationsHash: bundle.migrationsHash });
      expect(bundle.migrationsHash).to.match(/^[0-9a-f]{64}$/);
    });

    it('outputs the API URL and each intent public ids', () => {
      const outputs = Object.keys(dev.template.findOutputs('*'));
      expect(outputs).to.include.members(['ApiUrl', 'UserPoolId', 'AuthIssuer', 'AppClientwebId', 'AppClientworkerId', 'DatabasemainEndpoint', 'DatabasemainSecretArn', 'StorageuploadsBucket', 'StorageuploadsUrl', 'QueueemailsUrl', 'CachesessionsEndpoint', 'IdempotencyTable']);
    });
  });
});
