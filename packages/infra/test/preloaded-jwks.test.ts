import * as fs from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';
import * as vm from 'node:vm';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { Template } from 'aws-cdk-lib/assertions';
import { defineApp } from '@framework/core';
import { buildCdkApp } from '../src/index.js';
import { JWKS_FETCH_HANDLER_CODE } from '../src/auth/jwks-fetch-handler.js';
import { SMALL_APP, routeSource, tempProject } from './helpers/temp-project.js';

type Resources = Record<string, { Type: string; Properties: Record<string, unknown> }>;

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

/** A standalone function that verifies tokens itself (a webhook): @framework/auth's verifier ends up in its bundle. */
const VERIFYING_FUNCTION = `import { verifyAccessToken } from '@framework/auth';
export const main = async (event: { token: string }) => ({ subject: (await verifyAccessToken(event.token)).subject });
`;

describe('the pool\'s JWKS preloaded at deploy (FW_AUTH_JWKS)', () => {
  describe('in the stack', function () {
    this.timeout(180_000);
    const synth = (files: Record<string, string>, functions: Array<{ id: string }>) => {
      const project = tempProject(files);
      // The project's imports of the framework's packages resolve as in a real project.
      fs.symlinkSync(path.join(REPO, 'node_modules'), path.join(project.dir, 'node_modules'), 'dir');
      try {
        const app = defineApp({ ...SMALL_APP, rootDir: project.dir, infrastructure: { auth: {}, functions } });
        const { cdkApp, stack } = buildCdkApp(app, { outdir: `${project.dir}/cdk.out` });
        cdkApp.synth();
        return Template.fromStack(stack);
      } finally {
        project.remove();
      }
    };
    const variablesOf = (template: Template, functionName: string) =>
      (Object.values(template.findResources('AWS::Lambda::Function', { Properties: { FunctionName: functionName } }) as Resources)[0]!.Properties.Environment as { Variables: Record<string, unknown> }).Variables;

    it('fetches the JWKS once the pool exists and gives it to the functions that verify tokens, and to them only', () => {
      const template = synth({
        'src/functions/webhook.ts': VERIFYING_FUNCTION,
        'src/functions/report.ts': 'export const main = async () => ({ ok: true });\n',
        'src/routes/items/get.ts': routeSource(['items:read']),
        'src/ws/$connect.ts': "export const main = Object.assign(async () => undefined, { handlerInfo: { kind: 'ws', scopes: ['items:read'], middleware: [] } });\n",
      }, [{ id: 'webhook' }, { id: 'report' }]);
      const resources = template.findResources('Custom::FrameworkAuthJwks') as Resources;
      expect(Object.keys(resources)).to.have.length(1);
      const [logicalId, resource] = Object.entries(resources)[0]!;
      // The URL of the pool made in the same deploy: CloudFormation creates the pool first.
      const uri = JSON.stringify(resource.Properties.JwksUri);
      expect(uri).to.match(/"Ref":"AuthUserPool[0-9A-F]+"/);
      expect(uri).to.contain('/.well-known/jwks.json');
      expect(variablesOf(template, 'shop-dev-fn-webhook').FW_AUTH_JWKS).to.deep.equal({ 'Fn::GetAtt': [logicalId, 'Jwks'] });
      expect(variablesOf(template, 'shop-dev-auth-ws-connect').FW_AUTH_JWKS).to.deep.equal({ 'Fn::GetAtt': [logicalId, 'Jwks'] });
      expect(variablesOf(template, 'shop-dev-fn-report')).to.not.have.property('FW_AUTH_JWKS');
      expect(variablesOf(template, 'shop-dev-ws-connect')).to.not.have.property('FW_AUTH_JWKS');
      // The fetcher needs no permission of its own: no policy names it.
      const fetcher = resource.Properties.ServiceToken as { 'Fn::GetAtt': [string, string] };
      const role = (template.toJSON().Resources[fetcher['Fn::GetAtt'][0]].Properties as { Role: { 'Fn::GetAtt': [string, string] } }).Role['Fn::GetAtt'][0];
      const policies = Object.values(template.findResources('AWS::IAM::Policy') as Resources).filter((p) => JSON.stringify(p.Properties.Roles).includes(role));
      expect(policies).to.have.length(0);

      // An app none of whose functions verifies a token itself deploys no fetcher.
      synth({ 'src/routes/items/get.ts': routeSource(['items:read']) }, []).resourceCountIs('Custom::FrameworkAuthJwks', 0);
    });
  });

  describe('the deploy-time function (its inline code, run against a JWKS endpoint and a stand-in for CloudFormation\'s response URL)', function () {
    this.timeout(30_000);
    let server: http.Server;
    let base: string;
    let jwksStatus = 200;
    const answers: Array<Record<string, any>> = [];
    const JWKS = { keys: [{ kid: 'k1', kty: 'RSA', alg: 'RS256', use: 'sig', n: 'nnnn', e: 'AQAB', d: 'private-part' }, { kid: 'k2', kty: 'RSA', alg: 'RS256', use: 'sig', n: 'mmmm', e: 'AQAB' }] };

    before(async () => {
      server = http.createServer((request, response) => {
        if (request.url === '/pool/.well-known/jwks.json') {
          response.writeHead(jwksStatus, { 'content-type': 'application/json' }).end(jwksStatus === 200 ? JSON.stringify(JWKS) : '{}');
          return;
        }
        let body = '';
        request.on('data', (chunk: Buffer) => (body += chunk.toString()));
        request.on('end', () => {
          answers.push({ method: request.method, ...JSON.parse(body) });
          response.writeHead(200).end();
        });
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    });
    after(async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    });
    beforeEach(() => {
      answers.length = 0;
      jwksStatus = 200;
    });

    /** The inline code as Lambda loads it: a CommonJS module whose `handler` gets the custom resource event. */
    const handler = (): ((event: Record<string, unknown>) => Promise<void>) => {
      const module = { exports: {} as { handler?: (event: Record<string, unknown>) => Promise<void> } };
      vm.runInNewContext(JWKS_FETCH_HANDLER_CODE, { module, exports: module.exports, fetch, AbortSignal, setTimeout, console: { error: () => undefined }, JSON, Object, Array, String, Error, Promise });
      return module.exports.handler!;
    };
    const event = (requestType: string) => ({ RequestType: requestType, ResponseURL: `${base}/response`, StackId: 'stack', RequestId: 'request-1', LogicalResourceId: 'Jwks', ResourceProperties: { JwksUri: `${base}/pool/.well-known/jwks.json` } });

    it('answers SUCCESS with the JWKS, public fields only, as Data.Jwks', async () => {
      await handler()(event('Create'));
      expect(answers).to.have.length(1);
      expect(answers[0]).to.deep.include({ method: 'PUT', Status: 'SUCCESS', PhysicalResourceId: `${base}/pool/.well-known/jwks.json`, RequestId: 'request-1', LogicalResourceId: 'Jwks' });
      expect(JSON.parse(answers[0]!.Data.Jwks)).to.deep.equal({ keys: [{ kid: 'k1', kty: 'RSA', alg: 'RS256', use: 'sig', n: 'nnnn', e: 'AQAB' }, { kid: 'k2', kty: 'RSA', alg: 'RS256', use: 'sig', n: 'mmmm', e: 'AQAB' }] });
    });

    it('never fails the deploy: a JWKS it cannot fetch is an empty Jwks (the functions fetch it themselves)', async () => {
      jwksStatus = 503;
      await handler()(event('Update'));
      expect(answers[0]).to.deep.include({ Status: 'SUCCESS', Data: { Jwks: '' } });
      expect(answers[0]!.Reason).to.contain('503');
    });

    it('answers a delete without fetching', async () => {
      jwksStatus = 500;
      await handler()({ ...event('Delete'), PhysicalResourceId: 'earlier' });
      expect(answers[0]).to.deep.include({ Status: 'SUCCESS', PhysicalResourceId: 'earlier' });
    });
  });
});
