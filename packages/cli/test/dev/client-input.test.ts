import * as fs from 'node:fs';
import * as net from 'node:net';
import { expect } from 'chai';
import fc from 'fast-check';
import type { RouteDefinition } from '@framework/core';
import { buildHttpEvent } from '../../src/dev/server/gateway-event.js';
import { RouteTable } from '../../src/dev/server/route-table.js';
import { eventually, rawRequest, startDev, type RunningDev } from './helpers.js';
import { smallProject } from './small-project.js';

/** Every name `Object.prototype` answers to (`constructor`, `__proto__`, `toString`, ...). */
const PROTOTYPE_NAMES = Object.getOwnPropertyNames(Object.prototype);
const headerName = fc.oneof(fc.constantFrom(...PROTOTYPE_NAMES), fc.stringMatching(/^[a-z0-9!#$%&'*+.^_`|~-]{1,10}$/)).map((n) => n.toLowerCase()).filter((n) => n !== 'cookie');
const headerValue = fc.stringMatching(/^[!-~]{0,8}$/);
const queryName = fc.oneof(fc.constantFrom(...PROTOTYPE_NAMES), fc.string({ minLength: 1, maxLength: 8 }));
const cookieName = fc.oneof(fc.constantFrom(...PROTOTYPE_NAMES), fc.stringMatching(/^[A-Za-z0-9_.-]{1,8}$/));
const paramName = fc.oneof(fc.constantFrom(...PROTOTYPE_NAMES.filter((n) => /^\w+$/.test(n))), fc.stringMatching(/^[A-Za-z_]\w{0,6}$/));

const route = (path: string): RouteDefinition => ({
  kind: 'route', id: `GET ${path}`, file: '', functionName: 'f', memorySize: 128, timeout: 3, environment: {},
  method: 'GET', path, routeKey: `GET ${path}`, pathParams: [...path.matchAll(/\{(\w+)\+?\}/g)].map((m) => m[1]!),
});

/** The event as the worker receives it: through the structured clone of `postMessage`, as the dev server sends it. */
const delivered = <T>(value: T): T => structuredClone(value);

describe('gateway events: maps of client names', () => {
  it('carry exactly the headers, query parameters, cookies and path parameters sent, whatever their names', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(headerName, headerValue), { maxLength: 6 }),
        fc.array(fc.tuple(queryName, fc.string({ maxLength: 6 })), { maxLength: 6 }),
        fc.uniqueArray(fc.tuple(cookieName, fc.stringMatching(/^[A-Za-z0-9]{0,6}$/)), { maxLength: 4, selector: ([n]) => n }),
        fc.uniqueArray(fc.tuple(paramName, fc.stringMatching(/^[A-Za-z0-9._~-]{1,6}$/)), { minLength: 1, maxLength: 3, selector: ([n]) => n }),
        (headers, query, cookies, params) => {
          const table = new RouteTable([route(params.map(([n]) => `/p/{${n}}`).join(''))]);
          const match = table.match('GET', params.map(([, v]) => `/p/${v}`).join(''));
          expect(match, 'route match').to.not.equal(undefined);
          const rawHeaders = headers.flat();
          if (cookies.length) rawHeaders.push('cookie', cookies.map(([n, v]) => `${n}=${v}`).join('; '));
          const url = `/p?${query.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&')}`;
          const event = delivered(buildHttpEvent({ method: 'GET', url, rawHeaders, sourceIp: '127.0.0.1', port: 3000 }, match!, 'r', new Date(0)));

          const expectedHeaders = new Map<string, string>();
          for (const [n, v] of headers) expectedHeaders.set(n, expectedHeaders.has(n) ? `${expectedHeaders.get(n)},${v}` : v);
          // Plus what the gateway adds (the trace id only when the client sent none).
          const added = { 'x-forwarded-for': '127.0.0.1', 'x-forwarded-port': '3000', 'x-forwarded-proto': 'http', 'content-length': '0' };
          for (const [n, v] of Object.entries(added)) expectedHeaders.set(n, n === 'x-forwarded-for' && expectedHeaders.has(n) ? `${expectedHeaders.get(n)}, ${v}` : v);
          if (!expectedHeaders.has('x-amzn-trace-id')) expect(event.headers['x-amzn-trace-id']).to.match(/^Root=1-[0-9a-f]{8}-[0-9a-f]{24}$/);
          expectedHeaders.set('x-amzn-trace-id', event.headers['x-amzn-trace-id']!);
          expect(Object.keys(event.headers).sort()).to.deep.equal([...expectedHeaders.keys()].sort());
          for (const [n, v] of expectedHeaders) expect(event.headers[n], `header ${n}`).to.equal(v);

          const expectedQuery = new Map<string, string>();
          for (const [k, v] of query) expectedQuery.set(k, expectedQuery.has(k) ? `${expectedQuery.get(k)},${v}` : v);
          expect(Object.keys(event.queryStringParameters ?? {}).sort()).to.deep.equal([...expectedQuery.keys()].sort());
          for (const [k, v] of expectedQuery) expect(event.queryStringParameters![k], `query ${k}`).to.equal(v);

          expect(event.cookies ?? []).to.deep.equal(cookies.map(([n, v]) => `${n}=${v}`));
          expect(Object.keys(event.pathParameters ?? {}).sort()).to.deep.equal(params.map(([n]) => n).sort());
          for (const [n, v] of params) expect(event.pathParameters![n], `path parameter ${n}`).to.equal(v);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('turns ?constructor=1&constructor=2 into "1,2" (not "function Object() { [native code] },1,2")', () => {
    const event = buildHttpEvent({ method: 'GET', url: '/x?constructor=1&constructor=2&__proto__=3', rawHeaders: ['constructor', 'a', 'Constructor', 'b'], sourceIp: '127.0.0.1', port: 3000 }, { route: route('/x') }, 'r', new Date(0));
    expect(JSON.stringify(event.queryStringParameters)).to.equal('{"constructor":"1,2","__proto__":"3"}');
    expect(event.headers['constructor']).to.equal('a,b');
  });
});

describe('fw dev errors: one body shape, no handler message in a 500, readable stacks (small app, real HTTP)', function () {
  this.timeout(60_000);
  let dir: string;
  let dev: RunningDev;

  before(async () => {
    dir = smallProject({
      'src/routes/hello/post.ts': `export const main = async (event: { body?: string }) => ({ got: event.body ?? null });\n`,
      'src/routes/echo/get.ts': `export const main = async (event: unknown) => ({ statusCode: 200, headers: { 'content-type': 'application/json' }, body: JSON.stringify(event) });\n`,
      'src/routes/fail/import/get.ts': `throw new Error('secret-import: at import');\nexport const main = async () => 1;\n`,
      'src/routes/fail/async/get.ts': `export const main = () => { setTimeout(() => { throw new Error('secret-async: later'); }, 1); return new Promise(() => undefined); };\n`,
      'src/routes/fail/exit/get.ts': `export const main = async () => { console.error('secret-exit: leaving'); process.exit(7); };\n`,
      'src/routes/fail/raw/get.ts': `export const main = async () => { throw new RangeError('secret-raw: thrown'); };\n`,
      'src/routes/fail/runtime/get.ts': `import { handler } from '@framework/runtime';\nexport const main = handler(async () => { throw new TypeError('secret-runtime: thrown'); });\n`,
    });
    dev = await startDev(dir);
    // Start-up loads every route once (the broken one logs its failure then): let it finish before reading the console.
    await eventually(async () => (dev.output().includes('Dev endpoints:') ? true : undefined), 30_000, 'the start-up table');
  });

  after(async () => {
    await dev?.stop();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  const expectErrorBody = (text: string, status: number, what: string): { code: string; message: string; requestId: string } => {
    let body: { error?: { code?: unknown; message?: unknown; requestId?: unknown } };
    try {
      body = JSON.parse(text);
    } catch {
      throw new Error(`${what}: answered ${status} with a body that is not JSON: ${text}`);
    }
    expect(Object.keys(body), what).to.deep.equal(['error']);
    expect(body.error!.code, what).to.be.a('string').and.match(/^[A-Z_]+$/);
    expect(body.error!.message, what).to.be.a('string');
    expect(body.error!.requestId, what).to.be.a('string');
    return body.error as { code: string; message: string; requestId: string };
  };

  /** Sends raw bytes and reads the answer until the server closes the connection. */
  const rawExchange = (bytes: string): Promise<{ status: number; body: string }> =>
    new Promise((resolve, reject) => {
      const target = new URL(dev.url);
      const socket = net.connect(Number(target.port), target.hostname);
      let data = '';
      socket.setEncoding('utf8');
      socket.on('data', (d: string) => (data += d));
      socket.on('error', reject);
      socket.on('close', () => {
        const [head, ...rest] = data.split('\r\n\r\n');
        resolve({ status: Number(/^HTTP\/1\.1 (\d+)/.exec(head ?? '')?.[1] ?? 0), body: rest.join('\r\n\r\n') });
      });
      socket.write(bytes);
    });

  it('answers with the framework error body whatever refuses the request: unknown method, bad URL, unknown path, 431, unparsable HTTP', async () => {
    const cases: [string, Promise<{ status: number; body: string }>, number, string][] = [
      ['unknown method on a /_dev path', rawRequest(dev.url, { method: 'PROPFIND', path: '/_dev/functions' }), 404, 'NOT_FOUND'],
      ['bad URL', rawRequest(dev.url, { path: '/%zz' }), 400, 'BAD_REQUEST'],
      ['unknown /_dev path', rawRequest(dev.url, { path: '/_dev/no/such/path' }), 404, 'NOT_FOUND'],
      ['headers too large', rawRequest(dev.url, { path: '/hello', headers: { 'x-big': 'a'.repeat(20_000) } }), 431, 'REQUEST_HEADER_FIELDS_TOO_LARGE'],
      ['not HTTP', rawExchange('NOT HTTP AT ALL\r\n\r\n'), 400, 'BAD_REQUEST'],
      ['bad chunked body', rawExchange('POST /hello HTTP/1.1\r\nHost: localhost\r\nTransfer-Encoding: chunked\r\nContent-Type: application/json\r\n\r\nzz\r\n{}\r\n0\r\n\r\n'), 400, 'BAD_REQUEST'],
    ];
    for (const [what, answer, status, code] of cases) {
      const response = await answer;
      expect(response.status, what).to.equal(status);
      expect(expectErrorBody(response.body, response.status, what).code, what).to.equal(code);
    }
  });

  it('never puts a handler message in a 500 body (throw at import, uncaught async throw, process.exit, a raw throw, a handler() throw); the console has it', async () => {
    for (const kind of ['import', 'async', 'exit', 'raw', 'runtime']) {
      const response = await fetch(`${dev.url}/fail/${kind}`);
      const text = await response.text();
      expect(response.status, kind).to.equal(500);
      const error = expectErrorBody(text, response.status, kind);
      expect(text, kind).to.not.contain('secret');
      expect(error.code, kind).to.be.oneOf(['INTERNAL_ERROR', 'HANDLER_LOAD_FAILED']);
      await eventually(async () => (dev.output().includes(`secret-${kind}`) ? true : undefined), 5_000, `the ${kind} message in the console`);
    }
  });

  it('prints a handler error stack on real lines, not inside a JSON string', async () => {
    await fetch(`${dev.url}/fail/runtime`);
    const output = await eventually(async () => (/^TypeError: secret-runtime: thrown\n\s+at /m.test(dev.output()) ? dev.output() : undefined), 5_000, 'the readable stack');
    expect(output).to.not.match(/\\n\s+at /);
    // The log line itself stays one JSON object (what CloudWatch would get), minus the stack.
    const line = output.split('\n').find((l) => l.startsWith('{') && l.includes('secret-runtime'));
    expect(JSON.parse(line!).data.error).to.deep.include({ name: 'TypeError', message: 'secret-runtime: thrown' });
  });

  it('does not report a client that disconnects mid-request as an error with a stack', async () => {
    const before = dev.output().length;
    const target = new URL(dev.url);
    const socket = net.connect(Number(target.port), target.hostname);
    await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
    socket.write('POST /hello HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"partial":');
    await new Promise((resolve) => setTimeout(resolve, 100));
    socket.destroy();
    const said = await eventually(async () => {
      const text = dev.output().slice(before);
      return text.includes('closed the connection') ? text : undefined;
    }, 5_000, 'the disconnect noted');
    expect(said).to.match(/^\[fw\] POST \/hello: the client closed the connection before the request ended/m);
    expect(said).to.not.match(/aborted|ECONNRESET|\[fw\] error: POST \/hello/);
    expect(said).to.not.match(/\n\s+at /);
    // And the server still answers.
    expect((await fetch(`${dev.url}/hello`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' })).status).to.equal(200);
  });

  it('refuses a token request for a scope or an app client named like an Object.prototype member with a 400, never a 500', async () => {
    for (const name of ['constructor', '__proto__', 'toString', 'hasOwnProperty']) {
      for (const [request, code] of [[{ scopes: [name] }, 'UNKNOWN_SCOPE'], [{ scopes: [], client: name }, 'UNKNOWN_CLIENT']] as const) {
        const response = await fetch(`${dev.url}/_dev/token`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(request) });
        const text = await response.text();
        expect(response.status, `${name} ${text}`).to.equal(400);
        expect(expectErrorBody(text, response.status, name).code, name).to.equal(code);
      }
    }
  });

  it('hands a route query and cookies named like Object.prototype members as sent', async () => {
    const response = await rawRequest(dev.url, { path: '/echo?constructor=1&constructor=2&__proto__=x&toString=y', headers: { cookie: 'constructor=a; __proto__=b', constructor: 'h' } });
    const event = JSON.parse(response.body);
    expect(JSON.stringify(event.queryStringParameters)).to.equal('{"constructor":"1,2","__proto__":"x","toString":"y"}');
    expect(event.cookies).to.deep.equal(['constructor=a', '__proto__=b']);
    expect(event.headers.constructor).to.equal('h');
  });
});
