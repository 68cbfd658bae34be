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

  it('has one route per file, each with a Lambda proxy integration of the function core names', () => {
    const wsApi = Object.keys(dev.template.findResources('AWS::ApiGatewayV2::Api', { Properties: { ProtocolType: 'WEBSOCKET' } }))[0]!;
    const routes = resourcesOf(dev, 'AWS::ApiGatewayV2::Route').filter((r) => JSON.stringify(r.properties.ApiId).includes(wsApi));
    expect(routes.map((r) => r.properties.RouteKey)).to.have.members(['$connect', '$default', 'chat']);
    const integrations = resourcesOf(dev, 'AWS::ApiGatewayV2::Integration').filter((r) => JSON.stringify(r.properties.ApiId).includes(wsApi));
    expect(integrations).to.have.length(3);
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

  it('refuses a $connect with scopes (no deployed authorizer yet), naming the file and the way out', () => {
    const scoped = tempProject({ 'src/ws/$connect.ts': wsSource('return undefined;', ['items:read']) });
    try {
      const scopedApp = defineApp({ ...SMALL_APP, rootDir: scoped.dir, infrastructure: { auth: {} } });
      expect(() => new FrameworkStack(new App(), 'Test', { app: scopedApp }))
        .to.throw(/src\/ws\/\$connect\.ts requires scopes items:read, but the deployed WebSocket API has no \$connect authorizer yet.*Remove the scopes/)
        .with.property('code', 'FW_ERR_INFRA_WS_CONNECT_AUTH');
    } finally {
      scoped.remove();
    }
  });
});
