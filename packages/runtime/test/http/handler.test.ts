import { expect } from 'chai';
import {
  BadRequest,
  Conflict,
  createLogger,
  handler,
  InternalServerError,
  NotFound,
  response,
  ServiceUnavailable,
  setRootLogger,
  TooManyRequests,
  UnprocessableEntity,
  type HandlerContext,
} from '../../src/index.js';
import { httpEvent, jsonPost, lambdaContext, parseLines } from '../fixtures/events.js';

function body(result: { body?: string }): any {
  return result.body ? JSON.parse(result.body) : undefined;
}

describe('handler: status and error mapping', () => {
  let lines: string[];
  beforeEach(() => {
    lines = [];
    setRootLogger(createLogger({ level: 'debug', sink: (l) => lines.push(l) }));
  });
  afterEach(() => setRootLogger(undefined));

  it('answers 201 with the JSON of the returned object for POST', async () => {
    // given a POST route returning an object
    const main = handler(async (input: { title: string }) => ({ id: 't1', title: input.title }));
    // when it receives a JSON body
    const result = await main(jsonPost({ title: 'write tests' }), lambdaContext());
    // then
    expect(result.statusCode).to.equal(201);
    expect(result.headers?.['content-type']).to.equal('application/json; charset=utf-8');
    expect(body(result)).to.deep.equal({ id: 't1', title: 'write tests' });
  });

  it('answers 200 for other methods and 204 with an empty body for undefined and null', async () => {
    const get = handler(() => ({ ok: true }));
    expect((await get(httpEvent({ method: 'GET' }))).statusCode).to.equal(200);
    expect((await get(httpEvent({ method: 'PUT' }))).statusCode).to.equal(200);
    for (const value of [undefined, null]) {
      const result = await handler(() => value)(jsonPost({}));
      expect(result.statusCode).to.equal(204);
      expect(result.body).to.equal('');
    }
  });

  it('JSON-encodes a returned string; response() passes a string through as text', async () => {
    const plain = await handler(() => 'hello')(httpEvent());
    expect(plain.body).to.equal('"hello"');
    const explicit = await handler(() => response({ statusCode: 202, headers: { 'x-job': '7' }, body: 'accepted' }))(httpEvent({ method: 'POST' }));
    expect(explicit).to.deep.include({ statusCode: 202, body: 'accepted' });
    expect(explicit.headers).to.deep.equal({ 'x-job': '7', 'content-type': 'text/plain; charset=utf-8' });
  });

  it('response() sends binary bodies base64-encoded and cookies as set-cookie values', async () => {
    const result = await handler(() =>
      response({ body: Buffer.from([1, 2, 3]), cookies: ['session=abc; HttpOnly'] }),
    )(httpEvent());
    expect(result).to.deep.include({ statusCode: 200, isBase64Encoded: true, body: 'AQID', cookies: ['session=abc; HttpOnly'] });
    expect(result.headers?.['content-type']).to.equal('application/octet-stream');
  });

  it('treats a returned object with a statusCode field as data, not as a response', async () => {
    const result = await handler(() => ({ statusCode: 418, body: 'x' }))(httpEvent());
    expect(result.statusCode).to.equal(200);
    expect(body(result)).to.deep.equal({ statusCode: 418, body: 'x' });
  });

  it('answers HEAD with the status GET would have and no body', async () => {
    const result = await handler(() => ({ a: 1 }))(httpEvent({ method: 'HEAD' }));
    expect(result.statusCode).to.equal(200);
    expect(result.body).to.equal('');
  });

  const table: Array<[string, () => Error, number, string]> = [
    ['BadRequest', () => new BadRequest('title is required'), 400, 'BAD_REQUEST'],
    ['NotFound', () => new NotFound('No task t9'), 404, 'NOT_FOUND'],
    ['Conflict', () => new Conflict('Task exists'), 409, 'CONFLICT'],
    ['UnprocessableEntity', () => new UnprocessableEntity('Invalid task', { details: [{ path: 'title' }] }), 422, 'UNPROCESSABLE_ENTITY'],
    ['TooManyRequests', () => new TooManyRequests('Slow down', { retryAfter: 30 }), 429, 'TOO_MANY_REQUESTS'],
    ['ServiceUnavailable', () => new ServiceUnavailable('Maintenance'), 503, 'SERVICE_UNAVAILABLE'],
  ];
  for (const [name, make, status, code] of table) {
    it(`maps a thrown ${name} to ${status} ${code} with the shared error body`, async () => {
      const result = await handler(() => {
        throw make();
      })(httpEvent({ requestId: 'req-1' }));
      expect(result.statusCode).to.equal(status);
      const error = body(result).error;
      expect(error).to.include({ code, requestId: 'req-1', message: make().message });
    });
  }

  it('sends details and the Retry-After header', async () => {
    const unprocessable = await handler(() => {
      throw new UnprocessableEntity('Invalid task', { details: [{ path: 'title', problem: 'required' }] });
    })(httpEvent());
    expect(body(unprocessable).error.details).to.deep.equal([{ path: 'title', problem: 'required' }]);
    const limited = await handler(() => {
      throw new TooManyRequests(undefined, { retryAfter: 30 });
    })(httpEvent());
    expect(limited.headers?.['retry-after']).to.equal('30');
  });

  it('answers a thrown plain Error with 500 INTERNAL_ERROR, hiding its message and stack, and logs both', async () => {
    // given a route that throws an internal error
    const main = handler(() => {
      throw new Error('connection string postgres://admin:secret@db');
    });
    // when
    const result = await main(httpEvent({ requestId: 'req-500' }), lambdaContext());
    // then the body is generic
    expect(result.statusCode).to.equal(500);
    expect(body(result)).to.deep.equal({ error: { code: 'INTERNAL_ERROR', message: 'Internal server error', requestId: 'req-500' } });
    expect(result.body).not.to.contain('secret');
    // and the log line carries the message, the stack and the request id
    const logged = parseLines(lines).find((l) => l['level'] === 'error')!;
    expect(logged).to.include({ requestId: 'req-500', traceId: '1-5e6722a7-cc56xmpl46db7ae02d4da47e' });
    const error = (logged['data'] as { error: { message: string; stack: string; name: string } }).error;
    expect(error.message).to.contain('secret');
    expect(error.name).to.equal('Error');
    expect(error.stack).to.contain('handler.test.ts');
  });

  it('hides the message of a thrown InternalServerError too', async () => {
    const result = await handler(() => {
      throw new InternalServerError('table users is locked');
    })(httpEvent());
    expect(result.statusCode).to.equal(500);
    expect(result.body).not.to.contain('locked');
  });
});

describe('handler: body parsing', () => {
  let received: unknown;
  const main = handler((b) => {
    received = b;
    return { ok: true };
  });
  beforeEach(() => {
    received = 'not called';
    setRootLogger(createLogger({ sink: () => undefined }));
  });
  afterEach(() => setRootLogger(undefined));

  it('parses JSON by content type, including +json and charset parameters', async () => {
    await main(httpEvent({ method: 'POST', headers: { 'content-type': 'application/json; charset=utf-8' }, body: '{"a":1}' }));
    expect(received).to.deep.equal({ a: 1 });
    await main(httpEvent({ method: 'POST', headers: { 'content-type': 'application/merge-patch+json' }, body: '[1,2]' }));
    expect(received).to.deep.equal([1, 2]);
  });

  it('decodes base64 bodies before parsing', async () => {
    const encoded = Buffer.from(JSON.stringify({ title: 'é' })).toString('base64');
    await main(httpEvent({ method: 'POST', headers: { 'content-type': 'application/json' }, body: encoded, isBase64Encoded: true }));
    expect(received).to.deep.equal({ title: 'é' });
  });

  it('gives undefined for an empty body', async () => {
    await main(httpEvent({ method: 'POST', headers: { 'content-type': 'application/json' }, body: '' }));
    expect(received).to.equal(undefined);
    await main(httpEvent({ method: 'GET' }));
    expect(received).to.equal(undefined);
  });

  it('answers malformed JSON with 400 INVALID_JSON without calling the function', async () => {
    const result = await main(httpEvent({ method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"title": ' }));
    expect(result.statusCode).to.equal(400);
    expect(body(result).error.code).to.equal('INVALID_JSON');
    expect(received).to.equal('not called');
  });

  it('passes form-encoded and text bodies as strings and other base64 bodies as a Buffer', async () => {
    await main(httpEvent({ method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: Buffer.from('a=1&b=2').toString('base64'), isBase64Encoded: true }));
    expect(received).to.equal('a=1&b=2');
    await main(httpEvent({ method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'hi' }));
    expect(received).to.equal('hi');
    await main(httpEvent({ method: 'POST', headers: { 'content-type': 'image/png' }, body: 'iVBORw==', isBase64Encoded: true }));
    expect(Buffer.isBuffer(received)).to.equal(true);
    expect((received as Buffer).subarray(0, 4)).to.deep.equal(Buffer.from([0x89, 0x50, 0x4e, 0x47]));
  });
});

describe('handler: ctx', () => {
  it('exposes the request as documented', async () => {
    // given an event with path parameters, a repeated query parameter, cookies and mixed-case headers
    let ctx: HandlerContext | undefined;
    const main = handler((_b, c) => {
      ctx = c;
      // read lazily computed fields inside the invocation
      return { remaining: c.getRemainingTimeInMillis(), multi: c.multiValueQuery, cookies: c.cookies, trace: c.trace };
    });
    const event = httpEvent({
      path: '/tasks/42',
      pathParameters: { id: '42' },
      rawQueryString: 'tag=a&tag=b&q=x%20y',
      queryStringParameters: { tag: 'a,b', q: 'x y' },
      cookies: ['session=abc', 'theme=dark%20blue'],
      headers: { 'X-Custom-Header': 'v' },
      requestId: 'req-ctx',
    });
    // when
    const result = await main(event, lambdaContext(5_000));
    // then
    const out = body(result);
    expect(ctx!.requestId).to.equal('req-ctx');
    expect(ctx!.timestamp).to.be.instanceOf(Date);
    expect(ctx!.method).to.equal('GET');
    expect(ctx!.path).to.equal('/tasks/42');
    expect(ctx!.pathParams).to.deep.equal({ id: '42' });
    expect(ctx!.query).to.deep.equal({ tag: 'a,b', q: 'x y' });
    expect(out.multi).to.deep.equal({ tag: ['a', 'b'], q: ['x y'] });
    expect(out.cookies).to.deep.equal({ session: 'abc', theme: 'dark blue' });
    expect(ctx!.headers['x-custom-header']).to.equal('v');
    expect(ctx!.rawEvent).to.equal(event);
    expect(out.trace).to.deep.equal({ traceId: '1-5e6722a7-cc56xmpl46db7ae02d4da47e' });
    expect(out.remaining).to.be.within(1, 5_000);
    expect(ctx!.auth).to.equal(undefined);
  });

  it('reads the trace id from traceparent when there is no X-Amzn-Trace-Id', async () => {
    const main = handler((_b, c) => c.trace ?? null);
    const event = httpEvent({ headers: { traceparent: '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01' } });
    delete event.headers['x-amzn-trace-id'];
    expect(body(await main(event))).to.deep.equal({ traceId: '4bf92f3577b34da6a3ce929d0e0e4736' });
  });

  it('binds requestId and traceId to ctx.logger lines', async () => {
    const lines: string[] = [];
    setRootLogger(createLogger({ sink: (l) => lines.push(l) }));
    try {
      await handler((_b, c) => c.logger.info('created', { id: 't1' }))(httpEvent({ requestId: 'req-log' }));
    } finally {
      setRootLogger(undefined);
    }
    const [line] = parseLines(lines);
    expect(line).to.include({ level: 'info', message: 'created', requestId: 'req-log', traceId: '1-5e6722a7-cc56xmpl46db7ae02d4da47e' });
    expect(line!['data']).to.deep.equal({ id: 't1' });
  });
});
