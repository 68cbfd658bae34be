import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { expect } from 'chai';
import { defineApp } from '@framework/core';
import { bundleApp, lambdaBundleDefines, serviceBundleDefines, type AppBundle } from '../src/index.js';
import { SMALL_APP, tempProject } from './helpers/temp-project.js';

const repoNodeModules = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..', 'node_modules');

describe('serviceBundleDefines: service clients a function does not name stay out of its bundle', () => {
  it('leaves out queues and invoke when the code names neither, and keeps what it names or cannot resolve', () => {
    const none = { queues: [], functions: [], buckets: [], bucketWrites: false, wsSends: false, wsRegistry: false, wsPublishes: false };
    expect(serviceBundleDefines(none)).to.deep.equal({ 'globalThis.__fwOmitServiceQueues': 'true', 'globalThis.__fwOmitServiceInvoke': 'true', 'globalThis.__fwOmitServiceWs': 'true' });
    // service.http: left out only when the analysis read the code and found no `http` (unknown keeps it)
    expect(serviceBundleDefines({ ...none, queues: 'all', functions: 'all', wsSends: true, httpClient: false })).to.deep.equal({ 'globalThis.__fwOmitServiceHttp': 'true' });
    expect(serviceBundleDefines({ ...none, queues: 'all', functions: 'all', wsSends: true, httpClient: true })).to.deep.equal({});
    expect(serviceBundleDefines({ ...none, queues: ['events'] })).to.deep.equal({ 'globalThis.__fwOmitServiceInvoke': 'true', 'globalThis.__fwOmitServiceWs': 'true' });
    expect(serviceBundleDefines({ ...none, queues: 'all', functions: 'all', wsSends: true })).to.deep.equal({});
    // subscribe / connections only: the registry half of service.ws stays
    expect(serviceBundleDefines({ ...none, queues: 'all', functions: 'all', wsRegistry: true })).to.deep.equal({});
  });

  describe('bundleApp with the real runtime', () => {
    let project: ReturnType<typeof tempProject>;
    let bundle: AppBundle;
    const code = (name: string) => fs.readFileSync(bundle.functions.get(name)!.entryFile, 'utf8');
    before(function () {
      this.timeout(60_000);
      project = tempProject({
        'src/routes/plain/get.ts': "import { handler } from '@framework/runtime';\nexport const main = handler(async () => ({ ok: true }));\n",
        'src/routes/send/post.ts': "import { getService } from '@framework/runtime';\nexport const main = async () => { await getService().queues['events'].send({ a: 1 }); return 'sent'; };\n",
        'src/routes/push/post.ts': "import { getService } from '@framework/runtime';\nexport const main = async () => { await getService().ws.send('c1', 'hi'); return 'sent'; };\n",
        'src/routes/call/post.ts': "import { getService } from '@framework/runtime';\nexport const main = async () => getService().invoke({ function: 'report' }, {});\n",
        // Imports @framework/integrations for its webhooks only, or calls service.http.
        'src/routes/hooks/post.ts': "import { handler } from '@framework/runtime';\nimport { signStandardWebhook } from '@framework/integrations';\nexport const main = handler(async () => Object.keys(signStandardWebhook('whsec_' + Buffer.from('k'.repeat(24)).toString('base64'), 'm1', new Date(0), '{}')).sort());\n",
        'src/routes/fetch/get.ts': "import { handler } from '@framework/runtime';\nimport '@framework/integrations';\nexport const main = handler(async (_b, _ctx, service) => ({ breaker: service.http.circuitState('example.com') ?? 'none' }));\n",
        'src/routes/fetch-hidden/get.ts': "import { getService } from '@framework/runtime';\nimport '@framework/integrations';\nexport const main = async () => { try { (getService() as unknown as Record<string, { get(u: string): unknown }>)['ht'.concat('tp')]!.get('/'); return 'kept'; } catch (error) { return (error as { code?: string }).code; } };\n",
        // Reaches the client by a spelling the analysis does not read (so the function has no grant either).
        'src/routes/hidden/get.ts': "import { getService } from '@framework/runtime';\nexport const main = async () => { try { getService()['queues' as 'queues']['events']; return 'kept'; } catch (error) { return (error as { code?: string }).code; } };\n",
      });
      fs.symlinkSync(repoNodeModules, path.join(project.dir, 'node_modules'), 'dir');
      bundle = bundleApp(defineApp({ ...SMALL_APP, rootDir: project.dir }), { sourcemap: false });
    });
    after(() => project.remove());

    it('bundles a route without options as a plain route: no schema, scope or middleware code', () => {
      expect(code('shop-dev-route-get-plain')).to.not.include('VALIDATION_FAILED');
      expect(code('shop-dev-route-get-plain')).to.not.include('INSUFFICIENT_SCOPE');
    });

    it('bundles every function for Lambda (lambdaBundleDefines): without the stand-in context, answering with the one Lambda passes', async () => {
      expect(lambdaBundleDefines()).to.deep.equal({ 'globalThis.__fwLambdaBundle': 'true' });
      expect(code('shop-dev-route-get-plain')).to.not.include('stand-in Lambda context');
      expect(code('shop-dev-route-post-send')).to.not.include('stand-in Lambda context');
      const mod = (await import(pathToFileURL(bundle.functions.get('shop-dev-route-get-plain')!.entryFile).href)) as { main: (event: unknown, context: unknown) => Promise<{ statusCode: number; body: string }> };
      const event = { version: '2.0', routeKey: 'GET /plain', rawPath: '/plain', rawQueryString: '', headers: {}, requestContext: { http: { method: 'GET', path: '/plain' }, requestId: 'r-1' }, isBase64Encoded: false };
      const context = { awsRequestId: 'a-1', getRemainingTimeInMillis: () => 30_000 };
      const answer = await mod.main(event, context);
      expect(answer.statusCode).to.equal(200);
      expect(JSON.parse(answer.body)).to.deep.equal({ ok: true });
    });

    it('bundles neither the SQS nor the Lambda client into a route that sends and invokes nothing', () => {
      const plain = code('shop-dev-route-get-plain');
      expect(plain).to.not.include('@aws-sdk/client-sqs');
      expect(plain).to.not.include('@aws-sdk/client-lambda');
      expect(plain).to.not.include('@aws-sdk/client-apigatewaymanagementapi');
    });

    it('keeps the WebSocket client only in a function that calls service.ws', () => {
      expect(code('shop-dev-route-post-push')).to.include('@aws-sdk/client-apigatewaymanagementapi');
      expect(code('shop-dev-route-post-send')).to.not.include('@aws-sdk/client-apigatewaymanagementapi');
    });

    it('keeps the client a function names, and only that one', () => {
      expect(code('shop-dev-route-post-send')).to.include('@aws-sdk/client-sqs');
      expect(code('shop-dev-route-post-send')).to.not.include('@aws-sdk/client-lambda');
      expect(code('shop-dev-route-post-call')).to.include('@aws-sdk/client-lambda');
      expect(code('shop-dev-route-post-call')).to.not.include('@aws-sdk/client-sqs');
    });

    it('leaves the HTTP client and undici out of a function that imports @framework/integrations but never names service.http', () => {
      // undici's error codes (UND_ERR_...) mark its code
      expect(code('shop-dev-route-post-hooks')).to.not.include('UND_ERR');
      expect(code('shop-dev-route-get-fetch')).to.include('UND_ERR');
    });

    it('still runs what such a function uses from the package', async () => {
      const hooks = (await import(pathToFileURL(bundle.functions.get('shop-dev-route-post-hooks')!.entryFile).href)) as { main: (e: unknown) => Promise<{ statusCode: number; body: string }> };
      const answer = await hooks.main({ rawPath: '/hooks', requestContext: { http: { method: 'POST' }, requestId: 'r1' }, headers: {} });
      expect(answer.statusCode).to.equal(201);
      expect(JSON.parse(answer.body)).to.deep.equal(['webhook-id', 'webhook-signature', 'webhook-timestamp']);
    });

    it('answers service.http left out with FW_ERR_SERVICE_LEFT_OUT, and keeps it working where it is named', async () => {
      const hidden = (await import(pathToFileURL(bundle.functions.get('shop-dev-route-get-fetch-hidden')!.entryFile).href)) as { main: () => Promise<unknown> };
      expect(await hidden.main()).to.equal('FW_ERR_SERVICE_LEFT_OUT');
      const kept = (await import(pathToFileURL(bundle.functions.get('shop-dev-route-get-fetch')!.entryFile).href)) as { main: (e: unknown) => Promise<{ statusCode: number; body: string }> };
      const answer = await kept.main({ rawPath: '/fetch', requestContext: { http: { method: 'GET' }, requestId: 'r1' }, headers: {} });
      expect(answer.statusCode).to.equal(200);
      expect(JSON.parse(answer.body)).to.deep.equal({ breaker: 'none' });
    });

    it('answers a left-out client with FW_ERR_SERVICE_LEFT_OUT, not a TypeError', async () => {
      const mod = (await import(pathToFileURL(bundle.functions.get('shop-dev-route-get-hidden')!.entryFile).href)) as { main: () => Promise<unknown> };
      expect(await mod.main()).to.equal('FW_ERR_SERVICE_LEFT_OUT');
    });
  });
});
