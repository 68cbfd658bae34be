import { expect } from 'chai';
import * as v from 'valibot';
import { z } from 'zod';
import { createLogger, handler, idempotencyMiddleware, response, setRootLogger, type Middleware } from '../../../src/index.js';
import { httpEvent, jsonPost, parseLines } from '../../fixtures/events.js';

function errorOf(result: { statusCode?: number; body?: string }): { code: string; message: string; details?: { issues: { in: string; path: (string | number)[]; message: string }[] } } {
  return JSON.parse(result.body!).error;
}

describe('handler: request schemas', () => {
  let lines: string[];
  beforeEach(() => {
    lines = [];
    setRootLogger(createLogger({ level: 'debug', sink: (l) => lines.push(l) }));
  });
  afterEach(() => setRootLogger(undefined));

  for (const [library, newTask] of [
    ['zod', z.object({ title: z.string().min(1), priority: z.number().int().min(1).max(5), tags: z.array(z.string()) })],
    ['valibot', v.object({ title: v.pipe(v.string(), v.minLength(1)), priority: v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(5)), tags: v.array(v.string()) })],
  ] as const) {
    describe(library, () => {
      it('answers 400 VALIDATION_FAILED listing every issue with its path, and does not call fn', async () => {
        let called = false;
        const main = handler({
          body: newTask,
          fn: () => {
            called = true;
            return { ok: true };
          },
        });
        const result = await main(jsonPost({ title: '', priority: 9, tags: ['a', 7] }));
        expect(result.statusCode).to.equal(400);
        expect(result.headers?.['content-type']).to.equal('application/json; charset=utf-8');
        const error = errorOf(result);
        expect(error.code).to.equal('VALIDATION_FAILED');
        expect(error.message).to.match(/^Invalid request: body\.title: .+ \(\+2 more in details\.issues\)$/);
        expect(error.details!.issues.map((i) => [i.in, i.path])).to.deep.equal([
          ['body', ['title']],
          ['body', ['priority']],
          ['body', ['tags', 1]],
        ]);
        for (const issue of error.details!.issues) expect(issue.message).to.be.a('string').and.not.equal('');
        expect(called).to.equal(false);
      });

      it('reports a missing body as one issue at the body itself', async () => {
        const result = await handler({ body: newTask, fn: () => 'never' })(httpEvent({ method: 'POST' }));
        expect(result.statusCode).to.equal(400);
        expect(errorOf(result).details!.issues).to.have.length(1);
        expect(errorOf(result).details!.issues[0]).to.include({ in: 'body' });
        expect(errorOf(result).details!.issues[0]!.path).to.deep.equal([]);
      });

      it('passes the parsed body to fn and as ctx.input.body', async () => {
        const main = handler({
          body: newTask,
          fn: (body, ctx) => ({ title: body.title, priority: body.priority, same: ctx.input.body === body }),
        });
        const result = await main(jsonPost({ title: 'write tests', priority: 2, tags: [], extra: 'dropped' }));
        expect(result.statusCode).to.equal(201);
        expect(JSON.parse(result.body!)).to.deep.equal({ title: 'write tests', priority: 2, same: true });
      });
    });
  }

  it('checks query, path parameters and headers, coercing with the schema, and reports issues of every part at once', async () => {
    const main = handler({
      query: z.object({ limit: z.coerce.number().int().max(100), status: z.enum(['open', 'done']).optional() }),
      params: v.object({ id: v.pipe(v.string(), v.uuid()) }),
      headers: z.object({ 'x-tenant': z.string().min(3) }),
      fn: (_body, ctx) => ({ limit: ctx.input.query.limit, type: typeof ctx.input.query.limit, id: ctx.input.params.id, tenant: ctx.input.headers['x-tenant'], agent: ctx.headers['user-agent'] }),
    });
    const id = '0b5d1c6e-8f1a-4c55-9d7e-2a3b4c5d6e7f';
    const ok = await main(httpEvent({ method: 'GET', queryStringParameters: { limit: '20' }, pathParameters: { id }, headers: { 'x-tenant': 'acme', 'user-agent': 'curl' } }));
    expect(ok.statusCode).to.equal(200);
    // Headers the schema does not declare stay in ctx.headers.
    expect(JSON.parse(ok.body!)).to.deep.equal({ limit: 20, type: 'number', id, tenant: 'acme', agent: 'curl' });

    const bad = await main(httpEvent({ method: 'GET', queryStringParameters: { limit: '500', status: 'later' }, pathParameters: { id: '7' }, headers: {} }));
    expect(bad.statusCode).to.equal(400);
    expect(errorOf(bad).details!.issues.map((i) => [i.in, ...i.path])).to.deep.equal([
      ['query', 'limit'],
      ['query', 'status'],
      ['params', 'id'],
      ['headers', 'x-tenant'],
    ]);
  });

  it('awaits async refinements (zod) and async pipes (valibot)', async () => {
    const taken = new Set(['taken']);
    const lookup = async (name: string): Promise<boolean> => {
      await new Promise((resolve) => setImmediate(resolve));
      return !taken.has(name);
    };
    for (const body of [
      z.object({ name: z.string().refine(lookup, 'name is taken') }),
      v.objectAsync({ name: v.pipeAsync(v.string(), v.checkAsync(lookup, 'name is taken')) }),
    ]) {
      const main = handler({ body, fn: (b) => ({ created: b.name }) });
      const bad = await main(jsonPost({ name: 'taken' }));
      expect(bad.statusCode).to.equal(400);
      expect(errorOf(bad).details!.issues).to.deep.equal([{ in: 'body', path: ['name'], message: 'name is taken' }]);
      const ok = await main(jsonPost({ name: 'free' }));
      expect(ok.statusCode).to.equal(201);
      expect(JSON.parse(ok.body!)).to.deep.equal({ created: 'free' });
    }
  });

  it('keeps the parsed query, params and headers prototype-free', async () => {
    const main = handler({
      query: z.record(z.string(), z.string()),
      params: z.object({ id: z.string() }),
      fn: (_body, ctx) => ({
        queryProto: Object.getPrototypeOf(ctx.input.query) === null,
        paramsProto: Object.getPrototypeOf(ctx.input.params) === null,
        constructor: ctx.input.query['constructor'] ?? null,
        toString: typeof ctx.input.query['toString'],
      }),
    });
    const result = await main(httpEvent({ method: 'GET', queryStringParameters: { constructor: 'c' }, pathParameters: { id: '1' } }));
    expect(JSON.parse(result.body!)).to.deep.equal({ queryProto: true, paramsProto: true, constructor: 'c', toString: 'undefined' });
  });

  it('answers auth errors before validation, and validation errors before any middleware runs', async () => {
    const seen: string[] = [];
    const spy: Middleware = { name: 'spy', before: () => void seen.push('before') };
    const main = handler({ scopes: ['tasks:write'], body: z.object({ title: z.string() }), middleware: [spy], fn: () => 'ok' });
    expect((await main(jsonPost({}))).statusCode).to.equal(401);
    const withToken = jsonPost({});
    (withToken.requestContext as any).authorizer = { jwt: { claims: { sub: 'u1', scope: 'tasks:write' }, scopes: null } };
    const result = await main(withToken);
    expect(result.statusCode).to.equal(400);
    expect(seen).to.deep.equal([]);
    // And the keyed idempotency middleware never records a refused request (it is never entered).
    expect(idempotencyMiddleware).to.be.a('function');
  });

  it('keeps the handler(fn, options) form and routes without schemas unchanged', async () => {
    const main = handler(async (body: { title: string }) => ({ title: body.title }), {});
    expect(JSON.parse((await main(jsonPost({ title: 'x', other: 1 }))).body!)).to.deep.equal({ title: 'x' });
    expect(main.handlerInfo.kind).to.equal('http');
  });
});

describe('handler: response schemas', () => {
  let lines: string[];
  const previous = process.env.FW_VALIDATE_RESPONSES;
  beforeEach(() => {
    lines = [];
    setRootLogger(createLogger({ level: 'debug', sink: (l) => lines.push(l) }));
  });
  afterEach(() => {
    setRootLogger(undefined);
    if (previous === undefined) delete process.env.FW_VALIDATE_RESPONSES;
    else process.env.FW_VALIDATE_RESPONSES = previous;
  });

  const task = z.object({ id: z.string(), title: z.string() });

  it('with FW_VALIDATE_RESPONSES=1, answers a mismatch with a 500 carrying no internal message and logs the field', async () => {
    process.env.FW_VALIDATE_RESPONSES = '1';
    const main = handler({ response: task, fn: () => ({ id: 't1', title: 42 as unknown as string, secret: 'internal detail' }) });
    const result = await main(httpEvent({ method: 'GET' }));
    expect(result.statusCode).to.equal(500);
    const error = errorOf(result);
    expect(error).to.include({ code: 'RESPONSE_VALIDATION_FAILED', message: 'Internal server error' });
    expect(error.details).to.equal(undefined);
    expect(result.body).not.to.include('title').and.not.to.include('secret');
    const logged = parseLines(lines).find((l) => l.level === 'error')!;
    expect(JSON.stringify(logged)).to.match(/response\.title: /);
  });

  it('passes a matching value, and never checks response(...) values', async () => {
    process.env.FW_VALIDATE_RESPONSES = 'true';
    expect((await handler({ response: task, fn: () => ({ id: 't1', title: 'a' }) })(httpEvent({ method: 'GET' }))).statusCode).to.equal(200);
    const explicit = await handler({ response: task, fn: () => response({ statusCode: 202, body: 'queued' }) })(httpEvent({ method: 'GET' }));
    expect(explicit.statusCode).to.equal(202);
  });

  it('is off without the variable (deployed default), and the per-handler option overrides the variable both ways', async () => {
    delete process.env.FW_VALIDATE_RESPONSES;
    const wrong = () => ({ id: 1 }) as unknown as { id: string; title: string };
    expect((await handler({ response: task, fn: wrong })(httpEvent({ method: 'GET' }))).statusCode).to.equal(200);
    expect((await handler({ response: task, validateResponse: true, fn: wrong })(httpEvent({ method: 'GET' }))).statusCode).to.equal(500);
    process.env.FW_VALIDATE_RESPONSES = '1';
    expect((await handler({ response: task, validateResponse: false, fn: wrong })(httpEvent({ method: 'GET' }))).statusCode).to.equal(200);
  });
});

describe('handler: response schemas per status', () => {
  let lines: string[];
  const previous = process.env.FW_VALIDATE_RESPONSES;
  beforeEach(() => {
    lines = [];
    setRootLogger(createLogger({ level: 'debug', sink: (l) => lines.push(l) }));
    process.env.FW_VALIDATE_RESPONSES = '1';
  });
  afterEach(() => {
    setRootLogger(undefined);
    if (previous === undefined) delete process.env.FW_VALIDATE_RESPONSES;
    else process.env.FW_VALIDATE_RESPONSES = previous;
  });

  for (const [library, task, accepted] of [
    ['zod', z.object({ id: z.string(), title: z.string() }), z.object({ jobId: z.string() })],
    ['valibot', v.object({ id: v.string(), title: v.string() }), v.object({ jobId: v.string() })],
  ] as const) {
    describe(library, () => {
      it('checks a plain value against the automatic status (201 for POST, 200 otherwise) and response(...) bodies against theirs', async () => {
        const created = handler({ response: { 201: task, 202: accepted }, fn: () => ({ id: 't1', title: 'a' }) });
        expect((await created(jsonPost({}))).statusCode).to.equal(201);
        const queued = handler({ response: { 200: task, 202: accepted }, fn: () => response({ statusCode: 202, body: { jobId: 'j1' } }) });
        const ok = await queued(httpEvent({ method: 'GET' }));
        expect(ok.statusCode).to.equal(202);
        expect(JSON.parse(ok.body!)).to.deep.equal({ jobId: 'j1' });
        // A 204 has no body and needs no entry.
        expect((await handler({ response: { 200: task }, fn: () => undefined })(httpEvent({ method: 'DELETE' }))).statusCode).to.equal(204);
      });

      it('answers 500 RESPONSE_VALIDATION_FAILED when the body fails the schema of its status, the log naming status and field', async () => {
        // The 200 schema would accept this body: the 202 one decides.
        const main = handler({ response: { 200: task, 202: accepted }, fn: () => response({ statusCode: 202, body: { id: 't1', title: 'a' } }) });
        const result = await main(httpEvent({ method: 'GET' }));
        expect(result.statusCode).to.equal(500);
        expect(errorOf(result)).to.include({ code: 'RESPONSE_VALIDATION_FAILED', message: 'Internal server error' });
        expect(result.body).not.to.include('jobId');
        const logged = JSON.stringify(parseLines(lines).find((l) => l.level === 'error'));
        expect(logged).to.match(/response\.202\.jobId: /);
      });

      it('answers 500 naming a 2xx status the map does not declare; error statuses are not checked', async () => {
        const main = handler({ response: { 200: task }, fn: () => response({ statusCode: 202, body: { jobId: 'j1' } }) });
        const result = await main(httpEvent({ method: 'GET' }));
        expect(result.statusCode).to.equal(500);
        expect(errorOf(result)).to.include({ code: 'RESPONSE_VALIDATION_FAILED', message: 'Internal server error' });
        expect(JSON.stringify(parseLines(lines).find((l) => l.level === 'error'))).to.contain('status 202 is not declared in `response` (declared: 200)');
        // A plain value on POST is a 201, which this map does not declare either.
        expect((await handler({ response: { 200: task }, fn: () => ({ id: 't1', title: 'a' }) })(jsonPost({}))).statusCode).to.equal(500);
        const conflict = await handler({ response: { 200: task }, fn: () => response({ statusCode: 409, body: { taken: true } }) })(httpEvent({ method: 'GET' }));
        expect(conflict.statusCode).to.equal(409);
      });

      it('checks nothing when response validation is off', async () => {
        const main = handler({ response: { 200: task }, validateResponse: false, fn: () => response({ statusCode: 202, body: { other: 1 } }) });
        expect((await main(httpEvent({ method: 'GET' }))).statusCode).to.equal(202);
      });
    });
  }

  it('refuses a map key that is not a 2xx status with a body, or a value that is not a schema, when the handler is defined', () => {
    const task = z.object({ id: z.string() });
    expect(() => handler({ response: { 404: task }, fn: () => undefined })).to.throw(TypeError, /declares "404", which is not a 2xx status with a body/);
    expect(() => handler({ response: { 204: task }, fn: () => undefined })).to.throw(TypeError, /declares "204"/);
    expect(() => handler({ response: { 200: { id: 'x' } } as never, fn: () => undefined })).to.throw(TypeError, /status 200 is not a Standard Schema/);
    expect(() => handler({ response: {}, fn: () => undefined })).to.throw(TypeError, /declares no status/);
  });
});
