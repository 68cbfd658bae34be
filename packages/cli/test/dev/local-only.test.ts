import * as fs from 'node:fs';
import * as path from 'node:path';
import { expect } from 'chai';
import { configuredHostNames, DEV_ENDPOINT_REFUSALS, hostNameOf, isDevPath, isLoopbackName } from '../../src/dev/server/dev-endpoint-guard.js';
import { STATUS_ERROR_CODES } from '../../src/dev/server/fastify-answers.js';
import { DEV_GATEWAY_ERROR_CODES } from '../../src/dev/server/gateway-error-codes.js';
import { eventually, json, rawRequest, startDev, type RunningDev } from './helpers.js';
import { smallProject } from './small-project.js';

describe('dev endpoint guard: names', () => {
  it('answers with codes of the catalog (the README lists the catalog, test/errors.test.ts), each with its status', () => {
    const readme = fs.readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
    for (const code of [...DEV_ENDPOINT_REFUSALS, ...Object.values(STATUS_ERROR_CODES)]) {
      expect(DEV_GATEWAY_ERROR_CODES, code).to.have.property(code);
      expect(readme, code).to.match(new RegExp(`\\| \`${code}\` \\| \\d{3} \\|`));
    }
  });

  it('reads the host name of a Host header, and says which names are this machine', () => {
    expect(hostNameOf('localhost:3000')).to.equal('localhost');
    expect(hostNameOf('LOCALHOST')).to.equal('localhost');
    expect(hostNameOf('127.1:3000')).to.equal('127.0.0.1');
    expect(hostNameOf('[::1]:3000')).to.equal('[::1]');
    for (const bad of [undefined, '', 'a b', 'user@127.0.0.1', '127.0.0.1/x', '[::1', 'x:99999999']) expect(hostNameOf(bad), String(bad)).to.equal(undefined);
    for (const name of ['localhost', '127.0.0.1', '127.8.9.10', '[::1]']) expect(isLoopbackName(name), name).to.equal(true);
    for (const name of ['localhost.evil.example', 'evil.example', '10.0.0.1', '[::2]', '0.0.0.0', '128.0.0.1']) expect(isLoopbackName(name), name).to.equal(false);
  });

  it('adds the --host name, or every interface address when listening on all of them', () => {
    expect([...configuredHostNames('devbox.lan')]).to.deep.equal(['devbox.lan']);
    expect([...configuredHostNames('::1')]).to.deep.equal(['[::1]']);
    const all = configuredHostNames('0.0.0.0');
    expect(all.has('127.0.0.1')).to.equal(true);
    expect(all.has('0.0.0.0')).to.equal(false);
  });

  it('knows a /_dev path however it is encoded', () => {
    for (const p of ['/_dev/token', '/%5Fdev/token', '/%5fdev/invoke/x?y=1', '//_dev/functions', '/_dev']) expect(isDevPath(p), p).to.equal(true);
    for (const p of ['/', '/tasks', '/_devx/token', '/x/_dev/token', '/%zz']) expect(isDevPath(p), p).to.equal(false);
  });
});

describe('fw dev answers /_dev only to the developer (small app, real HTTP)', function () {
  this.timeout(60_000);
  let dir: string;
  let dev: RunningDev;
  let port: string;
  let received: string;

  before(async () => {
    dir = smallProject(
      {
        'src/routes/hello/get.ts': `export const main = async () => ({ hello: 'world' });\n`,
        'src/routes/secret/get.ts': `import { handler } from '@framework/runtime';\nexport const main = handler(async (_body, ctx) => ({ subject: ctx.auth.subject }), { scopes: ['items:read'] });\n`,
        'src/routes/uploads/post.ts': `import '@framework/storage';\nimport { handler } from '@framework/runtime';\nexport const main = handler(async (_body, _ctx, service) => service.storage.bucket('uploads').presignUpload({ key: 'incoming/note.txt', contentType: 'text/plain', expiresIn: 300 }));\n`,
      },
      `{ auth: {}, functions: [{ id: 'record' }], queues: [{ id: 'jobs' }], storage: [{ id: 'uploads', maxUploadBytes: 1024, corsOrigins: ['http://localhost:5173'] }] }`,
    );
    received = path.join(dir, 'received.log');
    fs.mkdirSync(path.join(dir, 'src/functions'), { recursive: true });
    fs.mkdirSync(path.join(dir, 'src/queues'), { recursive: true });
    // What reached the functions: one line per invocation or message.
    fs.writeFileSync(path.join(dir, 'src/functions/record.ts'), `import * as fs from 'node:fs';\nexport const main = async (event: unknown) => { fs.appendFileSync(${JSON.stringify(received)}, 'invoke ' + JSON.stringify(event) + '\\n'); return { recorded: true }; };\n`);
    fs.writeFileSync(path.join(dir, 'src/queues/jobs.ts'), `import * as fs from 'node:fs';\nexport const main = async (event: { Records: { body: string }[] }) => { for (const r of event.Records) fs.appendFileSync(${JSON.stringify(received)}, 'message ' + r.body + '\\n'); return { batchItemFailures: [] }; };\n`);
    dev = await startDev(dir);
    port = new URL(dev.url).port;
  });

  after(async () => {
    await dev?.stop();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  const receivedLines = () => (fs.existsSync(received) ? fs.readFileSync(received, 'utf8').split('\n').filter(Boolean) : []);

  it('refuses a Host that is not this machine (DNS rebinding) with 403 HOST_NOT_ALLOWED, on every /_dev path, however encoded; routes answer any Host', async () => {
    for (const host of ['evil.example', `evil.example:${port}`, `localhost.evil.example:${port}`, `10.1.2.3:${port}`]) {
      for (const [method, route] of [['GET', '/_dev/functions'], ['POST', '/_dev/token'], ['POST', '/_dev/invoke/record'], ['POST', '/_dev/queues/jobs/messages'], ['GET', '/%5Fdev/functions'], ['GET', '//_dev/functions'], ['GET', '/_dev/nothing-here']] as const) {
        const response = await rawRequest(dev.url, { method, path: route, headers: { host, 'content-type': 'application/json' }, body: method === 'POST' ? '{"scopes":[],"body":"x"}' : undefined });
        expect(response.status, `${host} ${method} ${route}`).to.equal(403);
        const body = JSON.parse(response.body);
        expect(body.error.code).to.equal('HOST_NOT_ALLOWED');
        expect(body.error.requestId).to.be.a('string');
        expect(body.error.message).to.contain('--host');
      }
    }
    // Loopback names, with any port, are this machine.
    for (const host of [`localhost:${port}`, `127.0.0.1:${port}`, `127.0.0.2:${port}`, `[::1]:${port}`, 'localhost']) {
      expect((await rawRequest(dev.url, { path: '/_dev/functions', headers: { host } })).status, host).to.equal(200);
    }
    expect(receivedLines()).to.deep.equal([]);
    // Routes stay reachable whatever the Host, as in the cloud.
    const response = await rawRequest(dev.url, { path: '/hello', headers: { host: 'evil.example' } });
    expect(response.status).to.equal(200);
    expect(JSON.parse(response.body)).to.deep.equal({ hello: 'world' });
  });

  it("refuses a foreign Host on the dev issuer's sign-in endpoints too (a DNS-rebound page could read a token from them)", async () => {
    for (const [method, route, body] of [['POST', '/oauth2/token', 'grant_type=client_credentials&client_id=web'], ['GET', '/oauth2/authorize?response_type=code&client_id=web', undefined], ['GET', '/.well-known/openid-configuration', undefined], ['GET', '/oauth2/userInfo', undefined]] as const) {
      const response = await rawRequest(dev.url, { method, path: route, headers: { host: `evil.example:${port}`, 'content-type': 'application/x-www-form-urlencoded' }, body });
      expect(response.status, `${method} ${route}`).to.equal(403);
      expect(JSON.parse(response.body).error.code, `${method} ${route}`).to.equal('HOST_NOT_ALLOWED');
    }
    // The developer's own requests reach them.
    expect((await rawRequest(dev.url, { path: '/.well-known/openid-configuration', headers: { host: `localhost:${port}` } })).status).to.equal(200);
  });

  it('refuses a browser page of another origin (Origin null too) with 403 CROSS_ORIGIN_REQUEST; answers its own, and presigned uploads from any allowed page', async () => {
    for (const origin of ['http://evil.example', 'null', 'http://localhost:5173', `https://127.0.0.1:${port}`, `http://127.0.0.1:${Number(port) + 1}`]) {
      for (const [route, body] of [['/_dev/token', { scopes: ['items:read'] }], ['/_dev/invoke/record', { from: origin }], ['/_dev/invoke/queue/jobs', { from: origin }], ['/_dev/queues/jobs/messages', { body: origin }]] as const) {
        const response = await fetch(`${dev.url}${route}`, { method: 'POST', headers: { origin, 'content-type': 'application/json' }, body: JSON.stringify(body) });
        expect(response.status, `${origin} ${route}`).to.equal(403);
        expect((await json(response)).error.code).to.equal('CROSS_ORIGIN_REQUEST');
      }
      const read = await fetch(`${dev.url}/_dev/functions`, { headers: { origin } });
      expect(read.status, `${origin} GET /_dev/functions`).to.equal(403);
    }
    // The dev server's own origin (a page it serves) is the developer.
    const own = await fetch(`${dev.url}/_dev/token`, { method: 'POST', headers: { origin: dev.url, 'content-type': 'application/json' }, body: JSON.stringify({ scopes: ['items:read'] }) });
    expect(own.status).to.equal(200);
    // Nothing a refused request carried reached a function: only the control message below arrives.
    await fetch(`${dev.url}/_dev/queues/jobs/messages`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ body: 'control' }) });
    await eventually(async () => (receivedLines().includes('message control') ? true : undefined), 10_000, 'the control message');
    expect(receivedLines()).to.deep.equal(['message control']);
    // The storage engine's presigned POST forms are meant for browser pages of other origins (the app's front end), as
    // on S3: their signature and the bucket's corsOrigins decide, not the dev endpoints' origin rule.
    const presigning = await fetch(`${dev.url}/uploads`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    const presigned = await json(presigning);
    expect(presigning.status, JSON.stringify(presigned)).to.equal(201);
    const form = new FormData();
    for (const [name, value] of Object.entries(presigned.fields as Record<string, string>)) form.append(name, value);
    form.append('file', new Blob(['a note'], { type: 'text/plain' }), 'note.txt');
    const upload = await fetch(presigned.url, { method: 'POST', headers: { origin: 'http://localhost:5173' }, body: form });
    expect(upload.status, await upload.clone().text()).to.be.oneOf([200, 201, 204]);
    expect(upload.headers.get('access-control-allow-origin')).to.equal('http://localhost:5173');
  });

  it('answers 415 UNSUPPORTED_MEDIA_TYPE to a state-changing request whose body is not JSON (a text/plain or form POST)', async () => {
    fs.rmSync(received, { force: true });
    for (const contentType of ['text/plain', 'text/plain;charset=UTF-8', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x']) {
      for (const route of ['/_dev/token', '/_dev/invoke/record', '/_dev/invoke/queue/jobs', '/_dev/invoke/cron/any', '/_dev/queues/jobs/messages']) {
        const response = await fetch(`${dev.url}${route}`, { method: 'POST', headers: { 'content-type': contentType }, body: '{"scopes":["items:read"],"body":"text"}' });
        expect(response.status, `${contentType} ${route}`).to.equal(415);
        const body = await json(response);
        expect(body.error.code).to.equal('UNSUPPORTED_MEDIA_TYPE');
        expect(body.error.message).to.contain('application/json');
      }
    }
    // A body without any Content-Type is refused too; a request without a body needs none.
    const bare = await rawRequest(dev.url, { method: 'POST', path: '/_dev/invoke/record', body: '{"bare":true}' });
    expect(bare.status).to.equal(415);
    const empty = await fetch(`${dev.url}/_dev/invoke/record`, { method: 'POST' });
    expect(empty.status).to.equal(200);
    expect(receivedLines()).to.deep.equal(['invoke {}']);
  });

  it('invokes only standalone functions: a route function with forged authorizer claims is a 404, the route checks the token', async () => {
    const functions = await json(await fetch(`${dev.url}/_dev/functions`));
    const secret = functions.routes.find((r: { path: string }) => r.path === '/secret');
    const forged = { version: '2.0', routeKey: 'GET /secret', rawPath: '/secret', headers: {}, requestContext: { http: { method: 'GET', path: '/secret' }, requestId: 'forged', authorizer: { jwt: { claims: { sub: 'admin', scope: 'items:read' }, scopes: ['items:read'] } } } };
    const response = await fetch(`${dev.url}/_dev/invoke/${secret.functionName}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(forged) });
    expect(response.status).to.equal(404);
    const body = await json(response);
    expect(body.error.code).to.equal('FUNCTION_NOT_FOUND');
    expect(body.error.message).to.contain('GET /secret');
    expect(body).to.not.have.nested.property('subject');
    expect((await fetch(`${dev.url}/secret`)).status).to.equal(401);
    // Standalone functions: by id and by deployed name.
    for (const name of ['record', functions.functions[0].functionName]) {
      expect((await fetch(`${dev.url}/_dev/invoke/${name}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' })).status, name).to.equal(200);
    }
  });
});
