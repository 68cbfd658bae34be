import { expect } from 'chai';
import { Conflict, createLogger, handler, setRootLogger, type HttpResponse, type Middleware } from '../../src/index.js';
import { httpEvent, jsonPost } from '../fixtures/events.js';

function tracer(name: string, log: string[], hooks: Partial<Pick<Middleware, 'before' | 'after' | 'onError'>> = {}): Middleware {
  return {
    name,
    before: async (req) => {
      log.push(`${name}.before`);
      return hooks.before?.(req);
    },
    after: async (req) => {
      log.push(`${name}.after`);
      await hooks.after?.(req);
    },
    onError: async (req) => {
      log.push(`${name}.onError`);
      await hooks.onError?.(req);
    },
  };
}

const cached: HttpResponse = { statusCode: 200, headers: { 'idempotency-replayed': 'true' }, body: '{"cached":true}' };

describe('middleware runner', () => {
  beforeEach(() => setRootLogger(createLogger({ sink: () => undefined })));
  afterEach(() => setRootLogger(undefined));

  it('runs before hooks in order, the handler, then after hooks in reverse (onion)', async () => {
    const log: string[] = [];
    const main = handler(
      () => {
        log.push('handler');
        return { ok: true };
      },
      { middleware: [tracer('outer', log), tracer('inner', log)] },
    );
    const result = await main(httpEvent());
    expect(result.statusCode).to.equal(200);
    expect(log).to.deep.equal(['outer.before', 'inner.before', 'handler', 'inner.after', 'outer.after']);
  });

  it('ends early when a before hook returns a response: no handler, only outer after hooks', async () => {
    const log: string[] = [];
    const main = handler(
      () => {
        log.push('handler');
      },
      { middleware: [tracer('outer', log), tracer('cache', log, { before: () => cached }), tracer('inner', log)] },
    );
    const result = await main(httpEvent());
    expect(result).to.deep.equal(cached);
    expect(log).to.deep.equal(['outer.before', 'cache.before', 'outer.after']);
  });

  it('lets middleware read and replace the parsed body and the response', async () => {
    const received: unknown[] = [];
    const main = handler((b) => received.push(b), {
      middleware: [
        {
          name: 'defaults',
          before: (req) => {
            req.body = { priority: 'normal', ...(req.body as object) };
          },
          after: (req) => {
            req.response = { ...req.response!, headers: { ...req.response!.headers, 'x-served-by': 'defaults' } };
          },
        },
      ],
    });
    const result = await main(jsonPost({ title: 't' }));
    expect(received).to.deep.equal([{ priority: 'normal', title: 't' }]);
    expect(result.headers?.['x-served-by']).to.equal('defaults');
    expect(result.statusCode).to.equal(201);
  });

  it('runs onError hooks in reverse when the handler throws, and maps the error when none answers', async () => {
    const log: string[] = [];
    const main = handler(
      () => {
        throw new Conflict('busy');
      },
      { middleware: [tracer('outer', log), tracer('inner', log)] },
    );
    const result = await main(httpEvent());
    expect(log).to.deep.equal(['outer.before', 'inner.before', 'inner.onError', 'outer.onError']);
    expect(result.statusCode).to.equal(409);
    expect(JSON.parse(result.body!).error.code).to.equal('CONFLICT');
  });

  it('uses the response an onError hook sets', async () => {
    const log: string[] = [];
    const main = handler(
      () => {
        throw new Error('boom');
      },
      {
        middleware: [
          tracer('fallback', log, {
            onError: (req) => {
              req.response = { statusCode: 503, headers: {}, body: `{"fallback":"${(req.error as Error).message}"}` };
            },
          }),
        ],
      },
    );
    const result = await main(httpEvent());
    expect(result).to.deep.include({ statusCode: 503, body: '{"fallback":"boom"}' });
  });

  it('handles an error thrown by a before hook like a handler error, running only entered middlewares', async () => {
    const log: string[] = [];
    const main = handler(() => log.push('handler'), {
      middleware: [
        tracer('outer', log),
        tracer('guard', log, {
          before: () => {
            throw new Conflict('locked');
          },
        }),
        tracer('never', log),
      ],
    });
    const result = await main(httpEvent());
    expect(result.statusCode).to.equal(409);
    expect(log).to.deep.equal(['outer.before', 'guard.before', 'guard.onError', 'outer.onError']);
  });

  it('handles an error thrown by an after hook: onError hooks run, the answer is the mapped error', async () => {
    const log: string[] = [];
    const main = handler(() => ({ ok: true }), {
      middleware: [
        tracer('outer', log),
        tracer('broken', log, {
          after: () => {
            throw new Error('after failed');
          },
        }),
      ],
    });
    const result = await main(httpEvent());
    expect(result.statusCode).to.equal(500);
    expect(log).to.deep.equal(['outer.before', 'broken.before', 'broken.after', 'broken.onError', 'outer.onError']);
  });

  it('gives each request its own internal scratch space', async () => {
    const seen: unknown[] = [];
    const mw: Middleware = {
      name: 'scratch',
      before: (req) => {
        seen.push(req.internal['scratch']);
        req.internal['scratch'] = 'set';
      },
    };
    const main = handler(() => 'x', { middleware: [mw] });
    await main(httpEvent());
    await main(httpEvent());
    expect(seen).to.deep.equal([undefined, undefined]);
  });
});
