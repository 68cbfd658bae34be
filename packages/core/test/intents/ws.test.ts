import { expect } from 'chai';
import { ConfigError, DEFAULT_ROUTE_SELECTION, ENV, defineApp, routeSelectionPath, wsApiName, wsConnectIsAuthorized, wsFunctionName } from '../../src/index.js';
import { TempProject, thrownBy, validOptions } from '../helpers/temp-project.js';

describe('the WebSocket API kind (src/ws/)', () => {
  let project: TempProject | undefined;
  afterEach(() => project?.remove());

  it('is absent, with no variables, when src/ws/ holds no handler', () => {
    project = new TempProject(['src/routes/health/get.ts']);
    const app = defineApp(validOptions(project.rootDir));
    expect(app.ws).to.equal(undefined);
    expect(app.environment).not.to.have.any.keys(ENV.wsUrl, ENV.wsManagementUrl);
    expect(app.units.map((u) => u.kind)).to.deep.equal(['route']);
  });

  it('makes one function per route key, $connect, $disconnect, $default first, then the actions by name, named {project}-{stage}-ws-<route>', () => {
    project = new TempProject(['src/ws/sendMessage.ts', 'src/ws/$default.ts', 'src/ws/$disconnect.ts', 'src/ws/$connect.ts', 'src/ws/join-room.ts', 'src/ws/_shared.ts']);
    const app = defineApp(validOptions(project.rootDir));
    expect(app.ws!.apiName).to.equal('acme-dev-ws');
    expect(app.ws!.connectAuthorizerFunctionName).to.equal('acme-dev-auth-ws-connect');
    expect(app.ws!.routeSelectionExpression).to.equal('$request.body.action');
    expect(app.ws!.routes.map((r) => [r.routeKey, r.file, r.functionName, r.kind])).to.deep.equal([
      ['$connect', 'src/ws/$connect.ts', 'acme-dev-ws-connect', 'ws'],
      ['$disconnect', 'src/ws/$disconnect.ts', 'acme-dev-ws-disconnect', 'ws'],
      ['$default', 'src/ws/$default.ts', 'acme-dev-ws-default', 'ws'],
      ['join-room', 'src/ws/join-room.ts', 'acme-dev-ws-join-room', 'ws'],
      ['sendMessage', 'src/ws/sendMessage.ts', 'acme-dev-ws-sendMessage', 'ws'],
    ]);
    expect(app.units.filter((u) => u.kind === 'ws')).to.deep.equal(app.ws!.routes);
    expect(app.forStage('prod').ws!.routes[0]!.functionName).to.equal('acme-prod-ws-connect');
  });

  it('puts $connect behind the authorizer exactly when there is a $connect and the auth intent', () => {
    project = new TempProject(['src/ws/$connect.ts', 'src/ws/$default.ts']);
    const app = defineApp(validOptions(project.rootDir));
    const clients = { appClients: { web: {} } };
    expect(wsConnectIsAuthorized(app.ws, clients)).to.equal(true);
    expect(wsConnectIsAuthorized(app.ws, undefined)).to.equal(false);
    expect(wsConnectIsAuthorized({ ...app.ws!, routes: app.ws!.routes.filter((r) => r.routeKey !== '$connect') }, clients)).to.equal(false);
    expect(wsConnectIsAuthorized(undefined, clients)).to.equal(false);
  });

  it('gives every function FW_WS_URL and FW_WS_MANAGEMENT_URL as outputs of the API, filled in by each interpreter', () => {
    project = new TempProject(['src/ws/$default.ts']);
    const app = defineApp(validOptions(project.rootDir));
    expect(app.environment[ENV.wsUrl]).to.deep.equal({ kind: 'output', intent: 'ws', id: 'default', output: 'url' });
    expect(app.environment[ENV.wsManagementUrl]).to.deep.equal({ kind: 'output', intent: 'ws', id: 'default', output: 'managementUrl' });
    expect([ENV.wsUrl, ENV.wsManagementUrl]).to.deep.equal(['FW_WS_URL', 'FW_WS_MANAGEMENT_URL']);
    expect(app.environment[ENV.wsRegistryTable]).to.deep.equal({ kind: 'output', intent: 'ws', id: 'default', output: 'registryTable' });
    expect(app.environment[ENV.wsFanoutQueueUrl]).to.deep.equal({ kind: 'output', intent: 'ws', id: 'default', output: 'fanoutQueueUrl' });
    expect([app.ws!.registryTableName, app.ws!.registryFunctionName, app.ws!.fanoutQueueName]).to.deep.equal(['acme-dev-ws-connections', 'acme-dev-fw-ws-registry', 'acme-dev-fw-ws-fanout']);
  });

  it('refuses file names that are no route key, sub-folders, and actions whose function name would be a $ route\'s, naming the fix', () => {
    project = new TempProject(['src/ws/$join.ts', 'src/ws/rooms/join.ts', 'src/ws/connect.ts', 'src/ws/has space.ts']);
    const error = thrownBy(() => defineApp(validOptions(project!.rootDir))) as ConfigError;
    expect(error).to.be.instanceOf(ConfigError);
    const problems = error.problems.map((p) => `${p.code} ${p.path}: ${p.message}`);
    expect(problems).to.have.length(4);
    expect(problems.find((p) => p.includes('src/ws/$join.ts'))).to.contain('FW_ERR_BAD_FILE_NAME').and.to.contain('$connect.ts, $disconnect.ts, $default.ts or <action>.ts');
    expect(problems.find((p) => p.includes('src/ws/rooms/join.ts'))).to.contain('move it to src/ws/join.ts');
    expect(problems.find((p) => p.includes('src/ws/connect.ts'))).to.contain('share its function name with $connect.ts');
    expect(problems.find((p) => p.includes('src/ws/has space.ts'))).to.contain('letters, digits');
  });

  it('takes the route selection expression from infrastructure.ws, and refuses one it cannot serve or an intent without files', () => {
    project = new TempProject(['src/ws/$default.ts']);
    const app = defineApp(validOptions(project.rootDir, { infrastructure: { ws: { routeSelectionExpression: '$request.body.meta.type' } } }));
    expect(app.ws!.routeSelectionExpression).to.equal('$request.body.meta.type');
    const bad = thrownBy(() => defineApp(validOptions(project!.rootDir, { infrastructure: { ws: { routeSelectionExpression: '$request.header.x' } } }))) as ConfigError;
    expect(bad.problems.map((p) => `${p.path}: ${p.message}`).join('\n')).to.contain('infrastructure.ws.routeSelectionExpression').and.to.contain('$request.body.<field>');
    const empty = new TempProject(['src/routes/health/get.ts']);
    try {
      const error = thrownBy(() => defineApp(validOptions(empty.rootDir, { infrastructure: { ws: {} } }))) as ConfigError;
      expect(error.problems.map((p) => `${p.path}: ${p.message}`)).to.deep.equal(['infrastructure.ws: configures the WebSocket API, but src/ws/ holds no handler; add src/ws/$default.ts (or $connect.ts, <action>.ts) or remove infrastructure.ws']);
    } finally {
      empty.remove();
    }
  });

  it('reads the route selection expression as a field path of the JSON message', () => {
    expect(routeSelectionPath(DEFAULT_ROUTE_SELECTION)).to.deep.equal(['action']);
    expect(routeSelectionPath('$request.body.meta.type')).to.deep.equal(['meta', 'type']);
    expect(routeSelectionPath('$request.header.x')).to.equal(undefined);
    expect(routeSelectionPath('$request.body.')).to.equal(undefined);
  });

  it('names through the naming module: the $ dropped, the API after the stage', () => {
    expect(wsFunctionName('acme', 'dev', '$connect')).to.equal('acme-dev-ws-connect');
    expect(wsFunctionName('acme', 'dev', 'chat')).to.equal('acme-dev-ws-chat');
    expect(wsApiName('acme', 'prod')).to.equal('acme-prod-ws');
  });
});
