import { expect } from 'chai';
import { createLogger, currentTenant, handler, runWithTenant, setRequestTenant, setRootLogger, type HandlerContext, type Middleware } from '../../src/index.js';
import { httpEvent } from '../fixtures/events.js';

describe('tenant scope', () => {
  beforeEach(() => setRootLogger(createLogger({ sink: () => undefined })));
  afterEach(() => setRootLogger(undefined));

  it('is undefined outside any tenant, and runWithTenant scopes one to the code it runs', async () => {
    expect(currentTenant()).to.equal(undefined);
    const seen = await runWithTenant({ id: 'acme' }, async () => {
      await new Promise((resolve) => setTimeout(resolve, 1));
      return [currentTenant()?.id, runWithTenant(undefined, () => currentTenant())];
    });
    expect(seen).to.deep.equal(['acme', undefined]);
    expect(currentTenant()).to.equal(undefined);
  });

  it('lets a middleware set the tenant of one request: ctx.tenant and currentTenant() in the route, never in another request', async () => {
    const fromHeader: Middleware<HandlerContext> = {
      name: 'test-tenant',
      before: async ({ ctx }) => {
        await new Promise((resolve) => setTimeout(resolve, Math.random() * 3));
        setRequestTenant(ctx, { id: ctx.headers['x-tenant']! });
      },
    };
    const route = handler(
      async (_body, ctx) => {
        await new Promise((resolve) => setTimeout(resolve, Math.random() * 3));
        return { ctx: ctx.tenant?.id, current: currentTenant()?.id };
      },
      { middleware: [fromHeader] },
    );
    const tenants = Array.from({ length: 20 }, (_, i) => `t${i % 5}`);
    const results = await Promise.all(tenants.map((id) => route(httpEvent({ headers: { 'x-tenant': id } }))));
    results.forEach((result, i) => expect(JSON.parse(String(result.body))).to.deep.equal({ ctx: tenants[i], current: tenants[i] }));
    expect(currentTenant()).to.equal(undefined);
  });

  it('sets nothing outside a request scope', () => {
    const ctx: { tenant?: { id: string } } = {};
    expect(setRequestTenant(ctx, { id: 'acme' })).to.equal(false);
    expect(ctx.tenant).to.equal(undefined);
    expect(currentTenant()).to.equal(undefined);
  });
});
