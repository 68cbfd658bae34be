import { expect } from 'chai';
import { createLogger, currentTenant, handler, registerApiKeyVerifier, setRootLogger, type HandlerContext } from '@framework/runtime';
import { requireTenant, resolveTenant, runWithTenant, tenantMiddleware, type TenantMiddlewareOptions } from '../../src/index.js';
import { httpEvent, machineClaims, userClaims } from '../support/events.js';

/** A route that answers with what it sees: `ctx.tenant` and `currentTenant()` after an await and in a timer. */
function echoRoute(options: TenantMiddlewareOptions = {}) {
  return handler(
    async (_body: unknown, ctx: HandlerContext) => {
      await new Promise((resolve) => setTimeout(resolve, 1));
      const later = await new Promise<string | undefined>((resolve) => setImmediate(() => resolve(currentTenant()?.id)));
      return { ctxTenant: ctx.tenant?.id ?? null, current: currentTenant()?.id ?? null, later: later ?? null };
    },
    { middleware: [tenantMiddleware(options)] },
  );
}

async function call(route: ReturnType<typeof echoRoute>, event: Parameters<ReturnType<typeof echoRoute>>[0]) {
  const result = await route(event);
  return { status: result.statusCode, body: JSON.parse(String(result.body || 'null')) as Record<string, unknown> & { error?: { code: string; message: string } } };
}

describe('tenant resolution: tenantMiddleware', () => {
  beforeEach(() => setRootLogger(createLogger({ sink: () => undefined })));
  afterEach(() => setRootLogger(undefined));

  it('takes the tenant from the token claim by default (custom:tenant_id), in ctx.tenant and currentTenant()', async () => {
    const { status, body } = await call(echoRoute(), httpEvent({ claims: userClaims('acme') }));
    expect(status).to.equal(200);
    expect(body).to.deep.equal({ ctxTenant: 'acme', current: 'acme', later: 'acme' });
  });

  it('reads a configured claim name', async () => {
    const { body } = await call(echoRoute({ claim: 'org' }), httpEvent({ claims: userClaims('globex', 'org') }));
    expect(body.ctxTenant).to.equal('globex');
  });

  it('answers 400 TENANT_REQUIRED naming the sources when none gives a tenant', async () => {
    const { status, body } = await call(echoRoute({ from: ['claim', 'header'] }), httpEvent({ claims: userClaims() }));
    expect(status).to.equal(400);
    expect(body.error?.code).to.equal('TENANT_REQUIRED');
    expect(body.error?.message).to.contain('custom:tenant_id').and.contain('x-tenant-id');
  });

  it('serves a request without a tenant when the route does not require one', async () => {
    const { status, body } = await call(echoRoute({ required: false }), httpEvent());
    expect(status).to.equal(200);
    expect(body).to.deep.equal({ ctxTenant: null, current: null, later: null });
  });

  it('reads a header, a subdomain and a path parameter', async () => {
    expect((await call(echoRoute({ from: ['header'] }), httpEvent({ headers: { 'x-tenant-id': 'acme' } }))).body.ctxTenant).to.equal('acme');
    expect((await call(echoRoute({ from: ['header'], header: 'X-Org' }), httpEvent({ headers: { 'x-org': 'initech' } }))).body.ctxTenant).to.equal('initech');
    expect((await call(echoRoute({ from: ['subdomain'], subdomainOf: 'example.com' }), httpEvent({ headers: { host: 'acme.example.com:443' } }))).body.ctxTenant).to.equal('acme');
    expect((await call(echoRoute({ from: ['subdomain'], subdomainOf: 'example.com', required: false }), httpEvent({ headers: { host: 'example.com' } }))).body.ctxTenant).to.equal(null);
    expect((await call(echoRoute({ from: ['path'] }), httpEvent({ path: '/t/acme/tasks', pathParameters: { tenant: 'acme' } }))).body.ctxTenant).to.equal('acme');
  });

  it('takes the first source that gives a value, in the configured order', async () => {
    const event = httpEvent({ headers: { 'x-tenant-id': 'acme', host: 'acme.example.com' }, pathParameters: { tenant: 'acme' } });
    const tenant = resolveTenant({ headers: event.headers as Record<string, string>, pathParams: { tenant: 'acme' }, rawEvent: event }, { from: ['path', 'subdomain', 'header'], subdomainOf: 'example.com' });
    expect(tenant).to.deep.equal({ id: 'acme', source: 'path' });
  });

  it('answers 403 TENANT_NOT_CALLERS when a header names another tenant than the token claim (the claim wins)', async () => {
    const route = echoRoute({ from: ['header', 'claim'] });
    const denied = await call(route, httpEvent({ claims: userClaims('acme'), headers: { 'x-tenant-id': 'globex' } }));
    expect(denied.status).to.equal(403);
    expect(denied.body.error?.code).to.equal('TENANT_NOT_CALLERS');
    const same = await call(route, httpEvent({ claims: userClaims('acme'), headers: { 'x-tenant-id': 'acme' } }));
    expect(same.body.ctxTenant).to.equal('acme');
  });

  it('answers 403 when a signed-in user without a tenant claim names a tenant; a machine token may', async () => {
    const route = echoRoute({ from: ['claim', 'header'] });
    const user = await call(route, httpEvent({ claims: userClaims(), headers: { 'x-tenant-id': 'acme' } }));
    expect(user.status).to.equal(403);
    expect(user.body.error?.code).to.equal('TENANT_NOT_CALLERS');
    const machine = await call(route, httpEvent({ claims: machineClaims(), headers: { 'x-tenant-id': 'acme' } }));
    expect(machine.body.ctxTenant).to.equal('acme');
    const refused = await call(echoRoute({ from: ['claim', 'header'], machineTokensChooseTenant: false }), httpEvent({ claims: machineClaims(), headers: { 'x-tenant-id': 'acme' } }));
    expect(refused.status).to.equal(403);
  });

  it('binds an API key to the tenant it was issued for: it never names another, and a key without one names none', async () => {
    registerApiKeyVerifier(async (key) =>
      key === 'sk_test_bound' ? { keyId: 'k1', owner: 'admin-1', scopes: [], tenant: 'acme' } : { keyId: 'k2', owner: 'admin-2', scopes: [] },
    );
    try {
      const route = handler(async (_body: unknown, ctx: HandlerContext) => ({ ctxTenant: ctx.tenant?.id ?? null }), {
        auth: ['jwt', 'apiKey'],
        middleware: [tenantMiddleware({ from: ['claim', 'header'] })],
      });
      const bound = await call(route, httpEvent({ headers: { 'x-api-key': 'sk_test_bound' } }));
      expect(bound.body.ctxTenant).to.equal('acme');
      const elsewhere = await call(route, httpEvent({ headers: { 'x-api-key': 'sk_test_bound', 'x-tenant-id': 'globex' } }));
      expect(elsewhere.status).to.equal(403);
      expect(elsewhere.body.error?.code).to.equal('TENANT_NOT_CALLERS');
      // a machine token may name a tenant (above); a key issued for no tenant may not
      const unbound = await call(route, httpEvent({ headers: { 'x-api-key': 'sk_test_unbound', 'x-tenant-id': 'globex' } }));
      expect(unbound.status).to.equal(403);
      expect(unbound.body.error?.message).to.include('issue the key with a tenant');
    } finally {
      registerApiKeyVerifier(undefined);
    }
  });

  it('answers 400 INVALID_TENANT_ID for an id that could escape a key or a setting, and 400 TENANT_CONFLICT for two tenants', async () => {
    for (const bad of ['../acme', "acme'; --", 'a'.repeat(65), 'acme/x', '__proto__x ']) {
      const { status, body } = await call(echoRoute({ from: ['header'] }), httpEvent({ headers: { 'x-tenant-id': bad } }));
      expect(status, bad).to.equal(400);
      expect(body.error?.code, bad).to.equal('INVALID_TENANT_ID');
    }
    const conflict = await call(echoRoute({ from: ['header', 'subdomain'], subdomainOf: 'example.com' }), httpEvent({ headers: { 'x-tenant-id': 'acme', host: 'globex.example.com' } }));
    expect(conflict.status).to.equal(400);
    expect(conflict.body.error?.code).to.equal('TENANT_CONFLICT');
  });

  it('keeps the tenants of interleaved requests apart', async () => {
    const route = echoRoute();
    const tenants = ['acme', 'globex', 'initech', 'umbrella'];
    const results = await Promise.all(Array.from({ length: 40 }, (_, i) => call(route, httpEvent({ claims: userClaims(tenants[i % tenants.length]) }))));
    results.forEach((result, i) => expect(result.body, `request ${i}`).to.deep.equal({ ctxTenant: tenants[i % 4], current: tenants[i % 4], later: tenants[i % 4] }));
    expect(currentTenant()).to.equal(undefined);
  });

  it('refuses options that cannot work, at creation', () => {
    expect(() => tenantMiddleware({ from: [] })).to.throw(/at least one source/);
    expect(() => tenantMiddleware({ from: ['cookie' as 'header'] })).to.throw(/"cookie"/);
    expect(() => tenantMiddleware({ from: ['subdomain'] })).to.throw(/subdomainOf/);
    expect(() => tenantMiddleware({ from: ['header'], header: 'x tenant' })).to.throw(/valid header name/);
  });
});

describe('tenant resolution: requireTenant and runWithTenant', () => {
  it('requireTenant returns the current tenant or throws a 400 TENANT_REQUIRED', () => {
    expect(() => requireTenant()).to.throw().with.property('code', 'TENANT_REQUIRED');
    expect(runWithTenant({ id: 'acme' }, () => requireTenant().id)).to.equal('acme');
    expect(requireTenant({ tenant: { id: 'globex' } }).id).to.equal('globex');
  });

  it('runWithTenant scopes the tenant to the code it runs', async () => {
    const seen = await runWithTenant({ id: 'acme' }, async () => {
      await new Promise((resolve) => setTimeout(resolve, 1));
      return currentTenant()?.id;
    });
    expect(seen).to.equal('acme');
    expect(currentTenant()).to.equal(undefined);
  });
});
