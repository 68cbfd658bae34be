import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { App, Stack } from 'aws-cdk-lib';
import * as apigw from 'aws-cdk-lib/aws-apigatewayv2';
import { Template } from 'aws-cdk-lib/assertions';
import { expect } from 'chai';
import { apiKeyAuthorizerGateRefusal, apiKeyAuthorizerIdentitySources, defineApp, type EnvironmentSettings } from '@framework/core';
import { ApiKeyAuthorizer, InfraError } from '../src/index.js';
import { SMALL_APP, tempProject } from './helpers/temp-project.js';
import { functionNamed, permissionsOf, resourcesOf, synthesize, type Synthesized } from './helpers/synth-once.js';

const KEYS_MODULE = `import { createApiKeys } from '@framework/integrations';\nexport const apiKeys = createApiKeys({ allowedScopes: ['items:read'] });\n`;
const route = (scopes: string[], auth?: string[], body = '1') =>
  `${auth ? "import { apiKeys } from '../../lib/keys.js';\n" : ''}export const main = Object.assign(async () => ${auth ? 'apiKeys.list("o")' : body}, { handlerInfo: { kind: 'http', scopes: ${JSON.stringify(scopes)}, middleware: [], ${auth ? `auth: ${JSON.stringify(auth)}` : ''} } });\n`;

describe('the API-key Lambda authorizer: routes with auth [..., "apiKey"] are behind it, with caching', () => {
  const project = tempProject({
    'src/lib/keys.ts': KEYS_MODULE,
    'src/routes/items/get.ts': route(['items:read'], ['jwt', 'apiKey']),
    'src/routes/reports/get.ts': route(['items:read']),
    'src/routes/health/get.ts': route([]),
    // A stand-in for the package (the temporary project has no node_modules): its name and its authorizer entry matter.
    'node_modules/@framework/integrations/package.json': JSON.stringify({ name: '@framework/integrations', type: 'module', exports: { '.': './index.js', './api-key-authorizer': './api-key-authorizer.js' } }),
    'node_modules/@framework/integrations/index.js': 'export const createApiKeys = () => ({ list: async () => [] });\n',
    'node_modules/@framework/integrations/api-key-authorizer.js': 'export const main = async () => ({ isAuthorized: false });\n',
  });
  let dev: Synthesized;
  const authorizerName = 'shop-dev-fw-api-key-authorizer';

  before(function () {
    this.timeout(240_000);
    dev = synthesize(defineApp({ ...SMALL_APP, rootDir: project.dir, infrastructure: { auth: {} } }));
  });
  after(() => {
    dev?.cleanup();
    project.remove();
  });

  const authorizers = () => resourcesOf(dev, 'AWS::ApiGatewayV2::Authorizer');
  const routeNamed = (key: string) => resourcesOf(dev, 'AWS::ApiGatewayV2::Route').find((r) => r.properties.RouteKey === key)!.properties;

  it('is an HTTP API REQUEST authorizer: payload 2.0, simple responses, identity source Authorization, verdicts cached 300 s', () => {
    const lambda = authorizers().filter((a) => a.properties.AuthorizerType === 'REQUEST');
    expect(lambda).to.have.length(1);
    expect(lambda[0]!.properties).to.deep.include({ AuthorizerPayloadFormatVersion: '2.0', EnableSimpleResponses: true, IdentitySource: ['$request.header.Authorization'], AuthorizerResultTtlInSeconds: 300, Name: 'api-key' });
    const fn = functionNamed(dev, authorizerName);
    expect(JSON.stringify(lambda[0]!.properties.AuthorizerUri)).to.contain(fn.logicalId);
  });

  it('puts the key route behind it (CUSTOM), the scoped route behind the JWT authorizer, and leaves the public route open', () => {
    const lambdaId = authorizers().find((a) => a.properties.AuthorizerType === 'REQUEST')!.logicalId;
    const jwtId = authorizers().find((a) => a.properties.AuthorizerType === 'JWT')!.logicalId;
    const keyRoute = routeNamed('GET /items');
    expect(keyRoute.AuthorizationType).to.equal('CUSTOM');
    expect(keyRoute).to.not.have.property('AuthorizationScopes');
    // The route lives in a shard: the authorizer's id arrives as a parameter of the parent's resource.
    expect(JSON.stringify(dev.template.toJSON())).to.contain(`"Ref":"${lambdaId}"`);
    expect(routeNamed('GET /reports').AuthorizationType).to.equal('JWT');
    expect(JSON.stringify(routeNamed('GET /reports').AuthorizerId) + JSON.stringify(dev.template.toJSON())).to.contain(jwtId);
    expect(routeNamed('GET /health').AuthorizationType ?? 'NONE').to.equal('NONE');
  });

  it('lets API Gateway invoke it for this authorizer only', () => {
    const permissions = resourcesOf(dev, 'AWS::Lambda::Permission').filter((p) => JSON.stringify(p.properties.FunctionName).includes(functionNamed(dev, authorizerName).logicalId));
    expect(permissions).to.have.length(1);
    expect(permissions[0]!.properties.Principal).to.equal('apigateway.amazonaws.com');
    expect(JSON.stringify(permissions[0]!.properties.SourceArn)).to.contain('/authorizers/');
  });

  it('reads the pepper (secret ARN and read on it) and starts with the pool\'s keys (FW_AUTH_JWKS) to verify tokens', () => {
    const fn = functionNamed(dev, authorizerName);
    expect(fn.properties).to.have.nested.property('Environment.Variables.FW_API_KEYS_PEPPER_SECRET_ARN');
    expect(fn.properties).to.have.nested.property('Environment.Variables.FW_AUTH_JWKS');
    expect(fn.properties).to.have.nested.property('Environment.Variables.FW_STAGE', 'dev');
    expect(permissionsOf(dev, authorizerName).actions).to.include('secretsmanager:GetSecretValue');
  });

  describe('ApiKeyAuthorizer on its own', () => {
    const bundleDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fw-key-authorizer-'));
    fs.writeFileSync(path.join(bundleDir, 'index.mjs'), 'export const main = async () => ({ isAuthorized: false });\n');
    after(() => fs.rmSync(bundleDir, { recursive: true, force: true }));
    const settings = defineApp({ ...SMALL_APP, rootDir: project.dir }).config.settings as EnvironmentSettings;
    const make = (ttl: number) => {
      const stack = new Stack(new App(), 'Keys', { env: { account: '123456789012', region: 'us-east-1' } });
      const httpApi = new apigw.HttpApi(stack, 'Api');
      new ApiKeyAuthorizer(stack, 'Keys', { bundle: { functionName: 'shop-dev-fw-api-key-authorizer', directory: bundleDir, handler: 'index.main' }, settings, httpApi, environment: {}, resultsCacheTtlSeconds: ttl });
      return Template.fromStack(stack);
    };

    it('without caching (TTL 0) has no identity source, so X-API-Key reaches it too', () => {
      make(0).hasResourceProperties('AWS::ApiGatewayV2::Authorizer', { AuthorizerResultTtlInSeconds: 0, IdentitySource: [] });
      make(3600).hasResourceProperties('AWS::ApiGatewayV2::Authorizer', { AuthorizerResultTtlInSeconds: 3600, IdentitySource: ['$request.header.Authorization'] });
    });

    it("lists exactly the identity sources core's gate rule (fw dev's) assumes: cached, a key in X-API-Key alone is refused", () => {
      for (const ttl of [0, 1, 300]) {
        const [authorizer] = Object.values(make(ttl).findResources('AWS::ApiGatewayV2::Authorizer')) as { Properties: { IdentitySource: string[] } }[];
        expect(authorizer!.Properties.IdentitySource, `TTL ${ttl}`).to.deep.equal(apiKeyAuthorizerIdentitySources(ttl));
        // API Gateway refuses a request missing any listed identity source before the authorizer runs.
        const listsOnlyAuthorization = authorizer!.Properties.IdentitySource.every((source) => source === '$request.header.Authorization');
        expect(listsOnlyAuthorization).to.equal(true);
        expect(apiKeyAuthorizerGateRefusal(ttl, { 'x-api-key': 'sk_test_x' }) !== undefined, `TTL ${ttl}`).to.equal(authorizer!.Properties.IdentitySource.length > 0);
      }
    });

    it('refuses a TTL API Gateway does not take, naming the range', () => {
      for (const ttl of [-1, 3601, 1.5]) expect(() => make(ttl)).to.throw(InfraError, /from 0 to 3600/);
    });
  });
});
