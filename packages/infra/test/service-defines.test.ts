import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { expect } from 'chai';
import { defineApp } from '@framework/core';
import { bundleApp, serviceBundleDefines, type AppBundle } from '../src/index.js';
import { SMALL_APP, tempProject } from './helpers/temp-project.js';

const repoNodeModules = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..', 'node_modules');

describe('serviceBundleDefines: service clients a function does not name stay out of its bundle', () => {
  it('leaves out queues and invoke when the code names neither, and keeps what it names or cannot resolve', () => {
    const none = { queues: [], functions: [], buckets: [], bucketWrites: false, wsSends: false, wsRegistry: false, wsPublishes: false };
    expect(serviceBundleDefines(none)).to.deep.equal({ 'globalThis.__fwOmitServiceQueues': 'true', 'globalThis.__fwOmitServiceInvoke': 'true', 'globalThis.__fwOmitServiceWs': 'true' });
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
        // Reaches the client by a spelling the analysis does not read (so the function has no grant either).
        'src/routes/hidden/get.ts': "import { getService } from '@framework/runtime';\nexport const main = async () => { try { getService()['queues' as 'queues']['events']; return 'kept'; } catch (error) { return (error as { code?: string }).code; } };\n",
      });
      fs.symlinkSync(repoNodeModules, path.join(project.dir, 'node_modules'), 'dir');
      bundle = bundleApp(defineApp({ ...SMALL_APP, rootDir: project.dir }), { sourcemap: false });
    });
    after(() => project.remove());

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

    it('answers a left-out client with FW_ERR_SERVICE_LEFT_OUT, not a TypeError', async () => {
      const mod = (await import(pathToFileURL(bundle.functions.get('shop-dev-route-get-hidden')!.entryFile).href)) as { main: () => Promise<unknown> };
      expect(await mod.main()).to.equal('FW_ERR_SERVICE_LEFT_OUT');
    });
  });
});
