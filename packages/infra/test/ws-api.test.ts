import { expect } from 'chai';
import { App } from 'aws-cdk-lib';
import { defineApp, type AppDefinition } from '@framework/core';
import { FrameworkStack } from '../src/index.js';
import { SMALL_APP, routeSource, tempProject } from './helpers/temp-project.js';
import { permissionsOf, resourcesOf, synthesize, type Synthesized } from './helpers/synth-once.js';

/** A WebSocket route module as `wsHandler` produces it: `main` carrying `handlerInfo`. */
function wsSource(body: string, scopes: readonly string[] = []): string {
  return `export const main = Object.assign(async (message: unknown, ctx: { connectionId: string }, service: any) => { ${body} }, { handlerInfo: { kind: 'ws', scopes: ${JSON.stringify(scopes)}, middleware: [] } });\n`;
}

describe('FrameworkStack: the WebSocket API of src/ws/', () => {
  let app: AppDefinition;
  let dev: Synthesized;
  const project = tempProject({
    'src/ws/$connect.ts': wsSource('return undefined;'),
    'src/ws/$default.ts': wsSource('await service.ws.send(ctx.connectionId, message);'),
    'src/ws/chat.ts': wsSource('return undefined;'),
    'src/routes/notify/post.ts': `export const main = Object.assign(async (event: any, _c: unknown, service: any) => service.ws.broadcast(JSON.parse(event.body).ids, 'hi'), { handlerInfo: { kind: 'http', scopes: [], middleware: [] } });\n`,
    'src/routes/other/get.ts': routeSource(),
    'src/routes/publish/post.ts': `export const main = Object.assign(async (_e: any, _c: unknown, service: any) => service.ws.publish('tasks', 'hi'), { handlerInfo: { kind: 'http', scopes: [], middleware: [] } });\n`,
  });

  before(function () {
    this.timeout(240_000);
    app = defineApp({ ...SMALL_APP, rootDir: project.dir, infrastructure: { auth: {} } });
    dev = synthesize(app);
  });
  after(() => {
    dev?.cleanup();
    project.remove();
  });

  it('is an AWS::ApiGatewayV2::Api with protocol WEBSOCKET, named by core, selecting routes by $request.body.action', () => {
    dev.template.hasResourceProperties('AWS::ApiGatewayV2::Api', { Name: 'shop-dev-ws', ProtocolType: 'WEBSOCKET', RouteSelectionExpression: '$request.body.action' });
    dev.template.hasResourceProperties('AWS::ApiGatewayV2::Stage', { StageName: 'dev', AutoDeploy: true });
  });

  it('has one route per file, each with a Lambda proxy integration of the function core names, and $disconnect (no file) on the framework\'s function', () => {
    const wsApi = Object.keys(dev.template.findResources('AWS::ApiGatewayV2::Api', { Properties: { ProtocolType: 'WEBSOCKET' } }))[0]!;
    const routes = resourcesOf(dev, 'AWS::ApiGatewayV2::Route').filter((r) => JSON.stringify(r.properties.ApiId).includes(wsApi));
    expect(routes.map((r) => r.properties.RouteKey)).to.have.members(['$connect', '$default', 'chat', '$disconnect']);
    const integrations = resourcesOf(dev, 'AWS::ApiGatewayV2::Integration').filter((r) => JSON.stringify(r.properties.ApiId).includes(wsApi));
    expect(integrations).to.have.length(4);
    const registryFunction = Object.keys(dev.template.findResources('AWS::Lambda::Function', { Properties: { FunctionName: 'shop-dev-fw-ws-registry' } }))[0]!;
    const disconnect = routes.find((r) => r.properties.RouteKey === '$disconnect')!;
    const target = integrations.find((i) => JSON.stringify(disconnect.properties.Target).includes(i.logicalId))!;
    expect(JSON.stringify(target.properties.IntegrationUri)).to.contain(registryFunction);
    for (const integration of integrations) expect(integration.properties.IntegrationType).to.equal('AWS_PROXY');
    const names = resourcesOf(dev, 'AWS::Lambda::Function').map((f) => f.properties.FunctionName);
    expect(names).to.include.members(['shop-dev-ws-connect', 'shop-dev-ws-default', 'shop-dev-ws-chat']);
  });

  it('grants execute-api:ManageConnections on its stage to the functions that send (a ws route, an HTTP route) and to no other', () => {
    for (const sender of ['shop-dev-ws-default', 'shop-dev-route-post-notify']) {
      const { statements } = permissionsOf(dev, sender);
      const grant = statements.find((s) => [s.Action].flat().includes('execute-api:ManageConnections'));
      expect(grant, sender).to.not.equal(undefined);
      expect(JSON.stringify(grant!.Resource)).to.contain('/dev/*/@connections/*');
    }
    for (const other of ['shop-dev-ws-connect', 'shop-dev-ws-chat', 'shop-dev-route-get-other']) {
      expect(permissionsOf(dev, other).actions, other).to.not.include('execute-api:ManageConnections');
    }
  });

  it('gives every function FW_WS_URL (wss://) and FW_WS_MANAGEMENT_URL (https://), and outputs both', () => {
    const fn = resourcesOf(dev, 'AWS::Lambda::Function').find((f) => f.properties.FunctionName === 'shop-dev-route-get-other')!;
    const variables = (fn.properties.Environment as { Variables: Record<string, unknown> }).Variables;
    expect(JSON.stringify(variables.FW_WS_URL)).to.contain('wss://').and.to.contain('/dev');
    expect(JSON.stringify(variables.FW_WS_MANAGEMENT_URL)).to.contain('https://').and.to.contain('/dev');
    const outputs = dev.template.toJSON().Outputs as Record<string, unknown>;
    expect(outputs).to.include.keys('WebSocketUrl', 'WebSocketManagementUrl');
  });

  it('creates the connection registry table named by core: on demand, TTL on ttl, keys pk/sk, the members index for lookups by user and topic', () => {
    dev.template.hasResourceProperties('AWS::DynamoDB::Table', {
      TableName: 'shop-dev-ws-connections',
      BillingMode: 'PAY_PER_REQUEST',
      TimeToLiveSpecification: { AttributeName: 'ttl', Enabled: true },
      KeySchema: [
        { AttributeName: 'pk', KeyType: 'HASH' },
        { AttributeName: 'sk', KeyType: 'RANGE' },
      ],
      GlobalSecondaryIndexes: [{ IndexName: 'members', KeySchema: [{ AttributeName: 'gk', KeyType: 'HASH' }, { AttributeName: 'pk', KeyType: 'RANGE' }] }],
    });
    const fn = resourcesOf(dev, 'AWS::Lambda::Function').find((f) => f.properties.FunctionName === 'shop-dev-route-get-other')!;
    const variables = (fn.properties.Environment as { Variables: Record<string, unknown> }).Variables;
    expect(JSON.stringify(variables.FW_WS_REGISTRY_TABLE)).to.contain('WebSocketRegistryTable');
    expect(JSON.stringify(variables.FW_WS_FANOUT_QUEUE_URL)).to.contain('FanoutQueue');
  });

  it('grants read/write on the registry to the ws functions and to functions that send, publish or subscribe, and to no other', () => {
    const writes = (name: string) => permissionsOf(dev, name).statements.some((st) => [st.Action].flat().includes('dynamodb:PutItem') && JSON.stringify(st.Resource).includes('WebSocketRegistryTable'));
    for (const fn of ['shop-dev-ws-connect', 'shop-dev-ws-default', 'shop-dev-ws-chat', 'shop-dev-route-post-notify', 'shop-dev-route-post-publish', 'shop-dev-fw-ws-registry']) expect(writes(fn), fn).to.equal(true);
    expect(writes('shop-dev-route-get-other')).to.equal(false);
  });

  it('deploys the fan-out queue (with a dead-letter queue) consumed by the framework\'s function, and lets only publishing functions send to it', () => {
    dev.template.hasResourceProperties('AWS::SQS::Queue', { QueueName: 'shop-dev-fw-ws-fanout', VisibilityTimeout: 360 });
    dev.template.hasResourceProperties('AWS::SQS::Queue', { QueueName: 'shop-dev-fw-ws-fanout-dlq' });
    const registryFunction = Object.keys(dev.template.findResources('AWS::Lambda::Function', { Properties: { FunctionName: 'shop-dev-fw-ws-registry' } }))[0]!;
    const mappings = resourcesOf(dev, 'AWS::Lambda::EventSourceMapping').filter((m) => JSON.stringify(m.properties.FunctionName).includes(registryFunction));
    expect(mappings).to.have.length(1);
    expect(JSON.stringify(mappings[0]!.properties.EventSourceArn)).to.contain('FanoutQueue');
    const sends = (name: string) => permissionsOf(dev, name).statements.some((st) => [st.Action].flat().includes('sqs:SendMessage') && JSON.stringify(st.Resource).includes('FanoutQueue'));
    expect(sends('shop-dev-route-post-publish')).to.equal(true);
    for (const fn of ['shop-dev-ws-default', 'shop-dev-route-post-notify', 'shop-dev-route-get-other']) expect(sends(fn), fn).to.equal(false);
    expect(permissionsOf(dev, 'shop-dev-fw-ws-registry').actions).to.include('execute-api:ManageConnections');
    expect(permissionsOf(dev, 'shop-dev-route-post-publish').actions).to.include('execute-api:ManageConnections');
  });

  it('puts a $connect without scopes behind the authorizer too (no scope required), as fw dev verifies a token sent at connect', () => {
    expect(resourcesOf(dev, 'AWS::ApiGatewayV2::Authorizer').filter((a) => a.properties.AuthorizerType === 'REQUEST')).to.have.length(1);
    const authorizer = resourcesOf(dev, 'AWS::Lambda::Function').find((f) => f.properties.FunctionName === 'shop-dev-auth-ws-connect');
    expect(authorizer, 'the authorizer function').to.not.equal(undefined);
    expect((authorizer!.properties.Environment as { Variables: Record<string, unknown> }).Variables['FW_WS_CONNECT_SCOPES']).to.equal('');
  });
});

describe('FrameworkStack: the $connect Lambda authorizer of a WebSocket API whose $connect declares scopes', () => {
  let scoped: Synthesized;
  const project = tempProject({
    'src/ws/$connect.ts': wsSource('return undefined;', ['items:read']),
    'src/ws/$default.ts': wsSource('return undefined;'),
    'src/routes/other/get.ts': routeSource(),
  });

  before(function () {
    this.timeout(240_000);
    scoped = synthesize(defineApp({ ...SMALL_APP, rootDir: project.dir, infrastructure: { auth: {} } }));
  });
  after(() => {
    scoped?.cleanup();
    project.remove();
  });

  it('is a REQUEST authorizer on the WebSocket API without identity source, used by $connect only', () => {
    const wsApi = Object.keys(scoped.template.findResources('AWS::ApiGatewayV2::Api', { Properties: { ProtocolType: 'WEBSOCKET' } }))[0]!;
    const authorizers = resourcesOf(scoped, 'AWS::ApiGatewayV2::Authorizer').filter((r) => JSON.stringify(r.properties.ApiId).includes(wsApi));
    expect(authorizers).to.have.length(1);
    const authorizer = authorizers[0]!;
    expect(authorizer.properties.AuthorizerType).to.equal('REQUEST');
    // Header OR query parameter: API Gateway would require every listed source, so none is listed.
    expect(authorizer.properties.IdentitySource ?? []).to.deep.equal([]);
    expect(JSON.stringify(authorizer.properties.AuthorizerUri)).to.contain('WsConnectAuthorizer');
    const routes = resourcesOf(scoped, 'AWS::ApiGatewayV2::Route').filter((r) => JSON.stringify(r.properties.ApiId).includes(wsApi));
    const connect = routes.find((r) => r.properties.RouteKey === '$connect')!;
    expect(connect.properties.AuthorizationType).to.equal('CUSTOM');
    expect(connect.properties.AuthorizerId).to.deep.equal({ Ref: authorizer.logicalId });
    const other = routes.find((r) => r.properties.RouteKey === '$default')!;
    expect(other.properties.AuthorizationType ?? 'NONE').to.equal('NONE');
  });

  it('is the function core names, with the auth variables and the $connect scopes as tokens carry them', () => {
    const fn = resourcesOf(scoped, 'AWS::Lambda::Function').find((f) => f.properties.FunctionName === 'shop-dev-auth-ws-connect');
    expect(fn, 'the authorizer function').to.not.equal(undefined);
    const variables = (fn!.properties.Environment as { Variables: Record<string, unknown> }).Variables;
    expect(variables.FW_WS_CONNECT_SCOPES).to.equal('shop/items:read');
    expect(variables).to.include.keys('FW_AUTH_USER_POOL_ID', 'FW_AUTH_AUDIENCE', 'FW_AUTH_ISSUER', 'FW_AUTH_RESOURCE_SERVER');
    // Not an app function: no other variable of the app.
    expect(variables).to.not.have.any.keys('FW_WS_URL', 'FW_WS_MANAGEMENT_URL');
  });

  it('may be invoked by API Gateway for this API\'s authorizers only', () => {
    const fn = resourcesOf(scoped, 'AWS::Lambda::Function').find((f) => f.properties.FunctionName === 'shop-dev-auth-ws-connect')!;
    const permissions = resourcesOf(scoped, 'AWS::Lambda::Permission').filter((p) => JSON.stringify(p.properties.FunctionName).includes(fn.logicalId));
    expect(permissions).to.have.length(1);
    expect(permissions[0]!.properties.Principal).to.equal('apigateway.amazonaws.com');
    expect(permissions[0]!.properties.Action).to.equal('lambda:InvokeFunction');
    expect(JSON.stringify(permissions[0]!.properties.SourceArn)).to.contain('/authorizers/');
  });

  it('refuses a $connect with a scope config/security.ts does not declare, or without the auth intent', () => {
    const undeclared = tempProject({ 'src/ws/$connect.ts': wsSource('return undefined;', ['items:write']) });
    try {
      expect(() => new FrameworkStack(new App(), 'Test', { app: defineApp({ ...SMALL_APP, rootDir: undeclared.dir, infrastructure: { auth: {} } }) }))
        .to.throw(/src\/ws\/\$connect\.ts requires items:write, which config\/security\.ts does not declare/)
        .with.property('code', 'FW_ERR_INFRA_UNDECLARED_SCOPE');
      expect(() => new FrameworkStack(new App(), 'Test', { app: defineApp({ ...SMALL_APP, rootDir: undeclared.dir }) }))
        .to.throw(/src\/ws\/\$connect\.ts requires scopes items:write, but the app has no auth intent/)
        .with.property('code', 'FW_ERR_INFRA_SCOPES_WITHOUT_AUTH');
    } finally {
      undeclared.remove();
    }
  });
});
