import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import { ApiError, createTransport, pathSegment, pathSegments } from '../../src/client/index.js';

interface Seen {
  readonly method: string;
  readonly url: string;
  readonly headers: IncomingMessage['headers'];
  readonly body: string;
}

/** A loopback server that records each request and answers with what the test queued. */
async function recordingServer(): Promise<{ url: string; seen: Seen[]; answer: (status: number, body?: string, headers?: Record<string, string>) => void; close: () => Promise<void> }> {
  const seen: Seen[] = [];
  let next: { status: number; body?: string; headers?: Record<string, string> } = { status: 200, body: '{}', headers: { 'content-type': 'application/json' } };
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString('utf8')));
    req.on('end', () => {
      seen.push({ method: req.method!, url: req.url!, headers: req.headers, body });
      res.writeHead(next.status, next.headers ?? {});
      res.end(next.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    answer: (status, body, headers = { 'content-type': 'application/json; charset=utf-8' }) => (next = { status, ...(body !== undefined ? { body } : {}), headers }),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

describe('client transport (@framework/runtime/client)', () => {
  let server: Awaited<ReturnType<typeof recordingServer>>;
  beforeEach(async () => (server = await recordingServer()));
  afterEach(async () => server.close());

  it('sends the body as JSON with the bearer token and the idempotency key, and returns the parsed answer', async () => {
    const t = createTransport({ baseUrl: `${server.url}/api/`, token: 'tok-1' });
    server.answer(201, JSON.stringify({ id: '7', title: 'x' }));
    const result = await t.bodyCall('POST', '/tasks')({ title: 'x' }, { idempotencyKey: 'key-1' });
    expect(result).to.deep.equal({ id: '7', title: 'x' });
    const [request] = server.seen;
    expect(request!.method).to.equal('POST');
    expect(request!.url).to.equal('/api/tasks');
    expect(request!.headers.authorization).to.equal('Bearer tok-1');
    expect(request!.headers['idempotency-key']).to.equal('key-1');
    expect(request!.headers['content-type']).to.equal('application/json');
    expect(JSON.parse(request!.body)).to.deep.equal({ title: 'x' });
  });

  it('asks a token provider before each call, and a call may bring its own token', async () => {
    let n = 0;
    const t = createTransport({ baseUrl: server.url, token: async () => `tok-${++n}` });
    await t.call('GET', '/a')();
    await t.call('GET', '/a')();
    await t.call('GET', '/a')({ token: 'mine' });
    expect(server.seen.map((s) => s.headers.authorization)).to.deep.equal(['Bearer tok-1', 'Bearer tok-2', 'Bearer mine']);
    await createTransport({ baseUrl: server.url }).call('GET', '/a')();
    expect(server.seen[3]!.headers.authorization).to.equal(undefined);
  });

  it('writes the query (undefined left out, arrays repeated) and escapes path parameters', async () => {
    const t = createTransport({ baseUrl: server.url });
    await t.call('GET', `/files/${pathSegment('a/b c')}/${pathSegments('x y/z')}`)({ query: { status: 'open', tag: ['a', 'b&c'], none: undefined, n: 2 } });
    expect(server.seen[0]!.url).to.equal('/files/a%2Fb%20c/x%20y/z?status=open&tag=a&tag=b%26c&n=2');
    expect(server.seen[0]!.body).to.equal('');
    expect(server.seen[0]!.headers['content-type']).to.equal(undefined);
  });

  it('resolves undefined for a 204, and the text of a non-JSON answer', async () => {
    const t = createTransport({ baseUrl: server.url });
    server.answer(204, undefined, {});
    expect(await t.bodyCall('PUT', '/x')({ a: 1 })).to.equal(undefined);
    server.answer(200, 'plain', { 'content-type': 'text/plain' });
    expect(await t.call('GET', '/x')()).to.equal('plain');
  });

  it('throws ApiError with the status, the error body and the validation issues', async () => {
    const t = createTransport({ baseUrl: server.url });
    const issues = [{ in: 'body', path: ['title'], message: 'Too small' }];
    server.answer(400, JSON.stringify({ error: { code: 'VALIDATION_FAILED', message: 'Invalid request: body.title: Too small', requestId: 'r-1', details: { issues } } }));
    const error = await t.bodyCall('POST', '/tasks')({ title: '' }).then(
      () => expect.fail('resolved'),
      (e: unknown) => e,
    );
    expect(error).to.be.instanceOf(ApiError);
    const api = error as ApiError;
    expect([api.name, api.status, api.code, api.message, api.requestId]).to.deep.equal(['ApiError', 400, 'VALIDATION_FAILED', 'Invalid request: body.title: Too small', 'r-1']);
    expect(api.issues).to.deep.equal(issues);
  });

  it("reads the gateway's own refusals ({ message } bodies) by status and WWW-Authenticate; any other body is HTTP_ERROR", async () => {
    const t = createTransport({ baseUrl: server.url });
    const fail = async () => (await t.call('GET', '/x')().catch((e: unknown) => e)) as ApiError;
    server.answer(401, JSON.stringify({ message: 'Unauthorized' }), { 'content-type': 'application/json', 'www-authenticate': 'Bearer' });
    let error = await fail();
    expect([error.status, error.code, error.message, error.issues.length]).to.deep.equal([401, 'UNAUTHORIZED', '401 Unauthorized', 0]);
    expect(error.headers.get('www-authenticate')).to.equal('Bearer');
    server.answer(403, JSON.stringify({ message: 'Forbidden' }), { 'content-type': 'application/json', 'www-authenticate': 'Bearer error="insufficient_scope", scope="app/a:write app/b:write"' });
    error = await fail();
    expect([error.status, error.code, error.message]).to.deep.equal([403, 'INSUFFICIENT_SCOPE', '403 Forbidden: the token needs the scope app/a:write or app/b:write']);
    server.answer(502, '<html>bad gateway</html>', { 'content-type': 'text/html' });
    error = await fail();
    expect([error.code, error.message]).to.deep.equal(['HTTP_ERROR', '502 Bad Gateway']);
  });

  it('calls the fetch it is given', async () => {
    const urls: string[] = [];
    const t = createTransport({
      baseUrl: 'http://api.invalid',
      fetch: async (input, init) => {
        urls.push(`${init?.method} ${String(input)}`);
        return new Response(JSON.stringify({ ok: true }), { headers: { 'content-type': 'application/json' } });
      },
    });
    expect(await t.call('DELETE', '/tasks/1')()).to.deep.equal({ ok: true });
    expect(urls).to.deep.equal(['DELETE http://api.invalid/tasks/1']);
  });
});
