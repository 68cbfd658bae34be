import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { expect } from 'chai';
import { defineApp } from '@framework/core';
import { bundleApp, needsOf, packageNameOf, preloadSdkClients, readHandlerInfo, referencesOf, sdkClientsToPreload, type AppBundle } from '../src/index.js';
import { allIntentsApp } from './fixtures/all-intents/app.js';
import { SMALL_APP, routeSource, tempProject } from './helpers/temp-project.js';

const sha = (file: string) => createHash('sha256').update(fs.readFileSync(file)).digest('hex');

describe('bundleApp', () => {
  const app = allIntentsApp('dev');
  let bundle: AppBundle;
  before(function () {
    this.timeout(60_000);
    bundle = bundleApp(app);
  });

  it('writes one self-contained folder per function, with an ESM entry and its source map', () => {
    expect([...bundle.functions.keys()]).to.have.members(app.units.map((u) => u.functionName));
    for (const fn of bundle.functions.values()) {
      expect(fs.readdirSync(fn.directory).sort()).to.deep.equal(['index.mjs', 'index.mjs.map']);
      expect(fn.handler).to.equal('index.main');
      const code = fs.readFileSync(fn.entryFile, 'utf8');
      expect(code).to.match(/^import\{createRequire as __fwCreateRequire\}from"node:module"|^import \{ createRequire as __fwCreateRequire \}/);
      expect(code).to.include('sourceMappingURL=index.mjs.map');
    }
  });

  it('records the packages each function imports, bundled or external', () => {
    const of = (name: string) => bundle.functions.get(name)!.packages;
    expect(of('acme-dev-route-get-tasks').has('pg')).to.equal(true);
    expect(of('acme-dev-route-post-files').has('@aws-sdk/client-s3')).to.equal(true);
    expect(of('acme-dev-queue-emails').has('@aws-sdk/client-sqs')).to.equal(true);
    expect([...of('acme-dev-route-get-health')]).to.deep.equal([]);
    // The AWS SDK stays out of the bundle (the Lambda runtime provides it).
    expect(fs.readFileSync(bundle.functions.get('acme-dev-route-post-files')!.entryFile, 'utf8')).to.match(/from\s*"@aws-sdk\/client-s3"/);
  });

  it('reads the scopes each handler declares by loading its bundle', () => {
    const infos = readHandlerInfo(app, bundle);
    expect(infos.get('acme-dev-route-get-health')).to.deep.equal({ kind: 'http', scopes: [], middleware: [] });
    expect(infos.get('acme-dev-route-put-tasks-id')?.scopes).to.deep.equal(['tasks:write', 'tasks:read']);
    expect(infos.get('acme-dev-route-post-tasks')).to.deep.include({ idempotent: true, middleware: ['idempotency'] });
    expect(infos.get('acme-dev-cron-cleanup')).to.deep.include({ kind: 'task', retries: 2 });
  });

  it("loads a database function without touching Node's fetch (pg's Cloudflare probe is answered by a navigator stand-in)", function () {
    this.timeout(60_000);
    // Given a bundle that includes pg, loaded in a fresh Node process whose fetch globals report any access
    const fn = bundle.functions.get('acme-dev-route-get-tasks')!;
    expect(fn.packages.has('pg')).to.equal(true);
    const probe = `
      const touched = [];
      for (const name of ['fetch', 'Response', 'Request', 'Headers']) {
        const descriptor = Object.getOwnPropertyDescriptor(globalThis, name);
        if (!descriptor) continue;
        Object.defineProperty(globalThis, name, { configurable: true, get() { touched.push(name); return descriptor.get ? descriptor.get.call(globalThis) : descriptor.value; } });
      }
      const mod = await import(${JSON.stringify(pathToFileURL(fn.entryFile).href)});
      console.log(JSON.stringify({ main: typeof mod.main, touched }));
    `;
    // When it is loaded (Lambda's init)
    const child = spawnSync(process.execPath, ['--input-type=module', '-e', probe], { cwd: app.rootDir, encoding: 'utf8', env: { PATH: process.env.PATH ?? '', FW_PROJECT: 'acme', FW_STAGE: 'dev', FW_REGION: 'eu-west-1' } });
    expect(child.status, child.stderr).to.equal(0);
    // Then no fetch global was read (on Node 20 reading Response alone loads the fetch implementation)
    expect(JSON.parse(child.stdout.trim().split('\n').at(-1)!)).to.deep.equal({ main: 'function', touched: [] });
  });

  it('loads the SDK clients a function uses during init (in Lambda only), and no others', function () {
    this.timeout(60_000);
    // Given a bundle that can reach DynamoDB, SQS and Lambda (the runtime imports each on first use)
    const packages = new Set(['@aws-sdk/client-dynamodb', '@aws-sdk/client-sqs', '@aws-sdk/client-lambda']);
    const none = needsOf(new Set());
    // Then only the clients of what the function does are preloaded
    expect(sdkClientsToPreload({ packages }, { ...none, idempotency: true, queueSend: true })).to.deep.equal(['@aws-sdk/client-sqs', '@aws-sdk/client-dynamodb']);
    expect(sdkClientsToPreload({ packages }, none)).to.deep.equal([]);
    expect(sdkClientsToPreload({ packages: new Set() }, { ...none, storage: true })).to.deep.equal([]);
    // When the preload is written (twice: it replaces itself)
    const fn = bundle.functions.get('acme-dev-route-post-tasks')!;
    const lines = fs.readFileSync(fn.entryFile, 'utf8').split('\n').length;
    preloadSdkClients(fn, ['@aws-sdk/client-sqs']);
    preloadSdkClients(fn, ['@aws-sdk/client-dynamodb', '@aws-sdk/client-sqs']);
    const code = fs.readFileSync(fn.entryFile, 'utf8');
    // Then the first line imports both under the Lambda guard, once, and no line moved (the source map still fits)
    const first = code.split('\n')[0]!;
    expect(first).to.include('if(process.env.AWS_LAMBDA_FUNCTION_NAME)await Promise.all([import("@aws-sdk/client-dynamodb"),import("@aws-sdk/client-sqs")]);');
    expect(first.split('fw:sdk-preload').length).to.equal(2);
    expect(code.split('\n').length).to.equal(lines);
    // and the bundle loads with the preload running (as in Lambda) and without it
    for (const env of [{ AWS_LAMBDA_FUNCTION_NAME: 'acme-dev-route-post-tasks' }, {}]) {
      const child = spawnSync(process.execPath, ['--input-type=module', '-e', `const m = await import(${JSON.stringify(pathToFileURL(fn.entryFile).href)}); console.log(typeof m.main);`], {
        cwd: app.rootDir,
        encoding: 'utf8',
        env: { PATH: process.env.PATH ?? '', AWS_REGION: 'eu-west-1', FW_PROJECT: 'acme', FW_STAGE: 'dev', FW_REGION: 'eu-west-1', ...env },
      });
      expect(child.status, child.stderr).to.equal(0);
      expect(child.stdout.trim()).to.equal('function');
    }
  });

  it('keeps the bytes of every unchanged function when one function changes', function () {
    this.timeout(60_000);
    const project = tempProject({
      'src/routes/a/get.ts': routeSource(),
      'src/routes/b/get.ts': routeSource(),
      'src/lib/shared.ts': 'export const shared = () => 1;\n',
      'src/routes/c/get.ts': "import { shared } from '../../lib/shared.js';\n" + routeSource([], 'shared()'),
    });
    try {
      const small = defineApp({ ...SMALL_APP, rootDir: project.dir });
      const first = bundleApp(small);
      const before = new Map([...first.functions].map(([name, fn]) => [name, sha(fn.entryFile)]));
      const again = bundleApp(small);
      for (const [name, fn] of again.functions) expect(sha(fn.entryFile), `${name} is deterministic`).to.equal(before.get(name));
      project.write('src/routes/a/get.ts', routeSource([], "({ ok: 'changed' })"));
      const after = bundleApp(small);
      expect(sha(after.functions.get('shop-dev-route-get-a')!.entryFile)).to.not.equal(before.get('shop-dev-route-get-a'));
      expect(sha(after.functions.get('shop-dev-route-get-b')!.entryFile)).to.equal(before.get('shop-dev-route-get-b'));
      expect(sha(after.functions.get('shop-dev-route-get-c')!.entryFile)).to.equal(before.get('shop-dev-route-get-c'));
    } finally {
      project.remove();
    }
  });

  it('names the packages of specifiers and infers needs from them', () => {
    expect(packageNameOf('@aws-sdk/client-s3/dist/x.js')).to.equal('@aws-sdk/client-s3');
    expect(packageNameOf('pg/lib/client')).to.equal('pg');
    expect(packageNameOf('./local.js')).to.equal(undefined);
    expect(packageNameOf('node:fs')).to.equal(undefined);
    expect(needsOf(new Set(['pg']))).to.deep.include({ database: true, cache: false, storage: false });
    // Every bundle imports the runtime: sending and invoking come from the ids a function names, not from packages.
    expect(needsOf(new Set(['@framework/runtime']))).to.deep.include({ queueSend: false, invoke: false, storage: false, idempotency: false });
    expect(needsOf(new Set(['@framework/runtime']), false, { queues: ['a'], functions: 'all', buckets: [], bucketWrites: false, wsSends: false, wsRegistry: false, wsPublishes: false })).to.deep.include({ queueSend: true, invoke: true, storage: false });
    expect(needsOf(new Set(), true).idempotency).to.equal(true);
  });
});

describe('referencesOf: the resources a function names', () => {
  it('reads literal queue, function and bucket ids, in every spelling the clients accept', () => {
    const code = [
      "await service.queues['task-events'].send(e); await service.queues.audit.send(e); await s.queues?.[\"other\"]?.send(e);",
      "await invoke({ function: 'task-summary' }, { payload: {} }); await service.invoke<{ n: number }>({ function: \"reports/daily\", }, {});",
      "const b = service.storage.bucket('attachments'); const c = service.storage.avatars; await b.list({}); await c.presignDownload('k');",
    ].join('\n');
    expect(referencesOf(code)).to.deep.equal({ queues: ['audit', 'other', 'task-events'], functions: ['reports/daily', 'task-summary'], buckets: ['attachments', 'avatars'], bucketWrites: false, wsSends: false, wsRegistry: false, wsPublishes: false, httpClient: false });
  });

  it('names nothing for a function that only returns data', () => {
    expect(referencesOf("export const main = handler(async (_b, ctx) => ({ status: 'ok', requestId: ctx.requestId }));", new Set(['@framework/runtime']))).to.deep.equal({ queues: [], functions: [], buckets: [], bucketWrites: false, wsSends: false, wsRegistry: false, wsPublishes: false, httpClient: false });
  });

  it('keeps service.http where the code has the word http other than as a URL scheme', () => {
    expect(referencesOf('const r = await service.http.get(url);').httpClient).to.equal(true);
    expect(referencesOf('const { http } = service; await http.post(u);').httpClient).to.equal(true);
    expect(referencesOf("await fetch('http://example.com/a'); await fetch('https://example.com/b');").httpClient).to.equal(false);
  });

  it('tells a bucket writer from a reader', () => {
    expect(referencesOf("const b = service.storage.bucket('uploads'); await b.presignUpload({ key });").bucketWrites).to.equal(true);
    expect(referencesOf("const b = service.storage.bucket('uploads'); await b.delete(key);").bucketWrites).to.equal(true);
    expect(referencesOf("const b = service.storage.bucket('uploads'); await b.get(key);").bucketWrites).to.equal(false);
  });

  it('grants every resource of a kind when a reference is built at run time or an SDK client is imported directly', () => {
    expect(referencesOf('await service.queues[name].send(e);').queues).to.equal('all');
    expect(referencesOf('await invoke(target, {});').functions).to.equal('all');
    expect(referencesOf('const b = service.storage.bucket(id);').buckets).to.equal('all');
    expect(referencesOf('', new Set(['@aws-sdk/client-sqs', '@aws-sdk/client-lambda', '@aws-sdk/client-s3']))).to.deep.equal({ queues: 'all', functions: 'all', buckets: 'all', bucketWrites: true, wsSends: false, wsRegistry: false, wsPublishes: false, httpClient: false });
  });

  it('marks a function that sends to WebSocket connections: service.ws.send/broadcast/disconnect, ws destructured, or the management client imported directly', () => {
    expect(referencesOf('await service.ws.send(ctx.connectionId, m);').wsSends).to.equal(true);
    expect(referencesOf('const { ws } = service; await ws.broadcast(ids, m);').wsSends).to.equal(true);
    expect(referencesOf('await service.ws?.disconnect(id);').wsSends).to.equal(true);
    expect(referencesOf('', new Set(['@aws-sdk/client-apigatewaymanagementapi'])).wsSends).to.equal(true);
    expect(referencesOf('const news = 1; socket.send(x); service.queues.a.send(x);').wsSends).to.equal(false);
  });

  it('gives a function that imports @framework-pro/chat every WebSocket grant (the package publishes, subscribes, unsubscribes and looks connections up)', () => {
    const chat = referencesOf('export const main = chatHttp.removeMember;', new Set(['@framework-pro/chat']));
    expect([chat.wsSends, chat.wsRegistry, chat.wsPublishes]).to.deep.equal([true, true, true]);
    const other = referencesOf('export const main = chatHttp.removeMember;', new Set(['@framework/data']));
    expect([other.wsSends, other.wsRegistry, other.wsPublishes]).to.deep.equal([false, false, false]);
  });

  it('marks a function that uses the WebSocket connection registry (subscribe, unsubscribe, connections, publish, send, broadcast) and one that publishes', () => {
    for (const code of ['await service.ws.subscribe(id, "tasks");', 'await ws.unsubscribe(id, t);', 'await service.ws.connections({ user });', 'await service.ws.publish("tasks", m);', 'await service.ws.send(id, m);']) {
      expect(referencesOf(code).wsRegistry, code).to.equal(true);
    }
    expect(referencesOf('await service.ws.publish("tasks", m);')).to.deep.include({ wsSends: true, wsPublishes: true });
    expect(referencesOf('await service.ws.subscribe(id, "tasks");')).to.deep.include({ wsSends: false, wsPublishes: false });
    expect(referencesOf('await service.ws.disconnect(id); pubsub.publish(x);')).to.deep.include({ wsRegistry: false, wsPublishes: false });
  });

  it("reads the project's own code of each bundle, without the framework's and without helpers the function never calls", () => {
    const project = tempProject({
      'src/lib/files.ts': "export const upload = (b: any) => b.presignUpload({ key: 'k' });\nexport const list = (b: any) => b.list({});\n",
      'src/routes/a/get.ts': "import { list } from '../../lib/files.js';\n// service.queues['in-a-comment'].send()\nexport const main = Object.assign(async (_e: unknown, _c: unknown, service: any) => list(service.storage.bucket('files')), { handlerInfo: { kind: 'http', scopes: [], middleware: [] } });\n",
      'src/routes/a/post.ts': "import { upload } from '../../lib/files.js';\nexport const main = Object.assign(async (_e: unknown, _c: unknown, service: any) => upload(service.storage.bucket('files')), { handlerInfo: { kind: 'http', scopes: [], middleware: [] } });\n",
    });
    try {
      const app = defineApp({ ...SMALL_APP, rootDir: project.dir });
      const bundle = bundleApp(app);
      const refs = (name: string) => referencesOf(bundle.functions.get(name)!.projectCode, bundle.functions.get(name)!.projectPackages);
      // `kind: 'http'` could as well be `service['http']`: the HTTP client is kept (the analysis errs on keeping)
      expect(refs('shop-dev-route-get-a')).to.deep.equal({ queues: [], functions: [], buckets: ['files'], bucketWrites: false, wsSends: false, wsRegistry: false, wsPublishes: false, httpClient: true });
      expect(refs('shop-dev-route-post-a')).to.deep.equal({ queues: [], functions: [], buckets: ['files'], bucketWrites: true, wsSends: false, wsRegistry: false, wsPublishes: false, httpClient: true });
    } finally {
      project.remove();
    }
  });
});

describe('bundling errors', () => {
  function expectCode(files: Record<string, string>, code: string, message: RegExp): void {
    const project = tempProject(files);
    try {
      const app = defineApp({ ...SMALL_APP, rootDir: project.dir });
      expect(() => readHandlerInfo(app, bundleApp(app))).to.throw(message).with.property('code', code);
    } finally {
      project.remove();
    }
  }

  it('reports a file esbuild cannot build, with its location', () => {
    expectCode({ 'src/routes/a/get.ts': 'export const main = (;\n' }, 'FW_ERR_INFRA_BUNDLE', /src\/routes\/a\/get\.ts:1/);
  });

  it('reports a handler that throws while loading', () => {
    expectCode({ 'src/routes/a/get.ts': "throw new Error('needs the cloud at load');\n" + routeSource() }, 'FW_ERR_INFRA_HANDLER_LOAD', /src\/routes\/a\/get\.ts threw while being loaded.*needs the cloud at load/);
  });

  it('reports a handler file without a main export', () => {
    expectCode({ 'src/routes/a/get.ts': 'export const handler = async () => ({});\n' }, 'FW_ERR_INFRA_HANDLER_EXPORT', /does not export a function named "main" \(exports: handler\)/);
  });

  it('loads handlers with a neutral environment: no credentials reach module code', () => {
    const project = tempProject({ 'src/routes/a/get.ts': "export const seen = process.env.AWS_SECRET_ACCESS_KEY ?? 'none';\nif (seen !== 'none') throw new Error('leaked');\n" + routeSource() });
    const saved = process.env.AWS_SECRET_ACCESS_KEY;
    process.env.AWS_SECRET_ACCESS_KEY = 'do-not-leak';
    try {
      const app = defineApp({ ...SMALL_APP, rootDir: project.dir });
      expect(readHandlerInfo(app, bundleApp(app)).get('shop-dev-route-get-a')?.scopes).to.deep.equal([]);
    } finally {
      if (saved === undefined) delete process.env.AWS_SECRET_ACCESS_KEY;
      else process.env.AWS_SECRET_ACCESS_KEY = saved;
      project.remove();
    }
  });
});

describe('bundleApp: packages only tools load', () => {
  it('leaves `typescript` out of a function that reaches it only through a config loader, and in one that imports it', function () {
    this.timeout(120_000);
    // Given a loader that requires typescript only to read a .ts config (as cosmiconfig does under mjml's htmlnano),
    // a route that uses the loader and a route that imports typescript itself
    const project = tempProject({
      'node_modules/config-loader/package.json': JSON.stringify({ name: 'config-loader', version: '1.0.0', main: 'index.js' }),
      'node_modules/config-loader/index.js': "exports.load = (file) => (file.endsWith('.ts') ? require('typescript').transpile(file) : 'plain');\n",
      'node_modules/typescript/package.json': JSON.stringify({ name: 'typescript', version: '5.0.0', main: 'index.js' }),
      'node_modules/typescript/index.js': "exports.marker = 'THE WHOLE TYPESCRIPT COMPILER'; exports.transpile = (x) => x;\n",
      'src/routes/config/get.ts': "import { load } from 'config-loader';\nexport const main = Object.assign(async () => load('app.json'), { handlerInfo: { kind: 'http', scopes: [], middleware: [] } });\n",
      'src/routes/compile/get.ts': "import ts from 'typescript';\nexport const main = Object.assign(async () => ts.marker, { handlerInfo: { kind: 'http', scopes: [], middleware: [] } });\n",
    });
    try {
      const bundle = bundleApp(defineApp({ ...SMALL_APP, rootDir: project.dir }), { cache: false });
      const code = (name: string) => fs.readFileSync(bundle.functions.get(name)!.entryFile, 'utf8');
      // Then the loader's function keeps the require, without the compiler, and still loads (nothing calls it)
      expect(code('shop-dev-route-get-config')).to.not.include('THE WHOLE TYPESCRIPT COMPILER');
      expect(code('shop-dev-route-get-config')).to.include('("typescript")');
      const child = spawnSync(process.execPath, ['--input-type=module', '-e', `const m = await import(${JSON.stringify(pathToFileURL(bundle.functions.get('shop-dev-route-get-config')!.entryFile).href)}); console.log(await m.main());`], { cwd: project.dir, encoding: 'utf8', env: { PATH: process.env.PATH ?? '' } });
      expect(child.stdout.trim(), child.stderr).to.equal('plain');
      // And the function whose own code imports typescript has it bundled
      expect(code('shop-dev-route-get-compile')).to.include('THE WHOLE TYPESCRIPT COMPILER');
    } finally {
      project.remove();
    }
  });
});
