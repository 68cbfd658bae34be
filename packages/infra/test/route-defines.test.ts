import { expect } from 'chai';
import { PLAIN_ROUTE_DEFINE } from '@framework/runtime';
import { routeOptionDefines } from '../src/index.js';

describe('routeOptionDefines: a route that declares no option besides fn is bundled as a plain route', () => {
  it('gives the plain-route define to code that names no route option', () => {
    for (const code of [
      'var main = handler(async (b) => ({ ok: true, b }));',
      'var main = handler(async (body, ctx) => ({ id: ctx.requestId, title: body.title }));',
      'var main = handler({ fn: async () => "ok" });',
    ]) {
      expect(routeOptionDefines(code), code).to.deep.equal({ [PLAIN_ROUTE_DEFINE]: 'true' });
    }
  });

  it('keeps the option code in a function that imports a package which may export a ready route', () => {
    expect(routeOptionDefines('export const main = chatHttp.removeMember;', new Set(['@framework-pro/chat']))).to.deep.equal({});
    expect(routeOptionDefines('var main = handler(async () => 1);', new Set(['@framework/runtime', 'zod']))).to.deep.equal({ [PLAIN_ROUTE_DEFINE]: 'true' });
  });

  it('keeps the option code when any option may be declared, and errs on keeping', () => {
    for (const code of [
      "var main = handler({ scopes: ['tasks:read'], fn: async () => 1 });",
      'var main = handler({ body: newTask, fn: async (b) => b });',
      'var main = handler({ body, response, fn });',
      'var main = handler(fn, { middleware: [m] });',
      "var main = handler({ auth: ['jwt', 'apiKey'], fn });",
      'var main = handler(async (_b, ctx) => ctx.auth?.subject ?? null);',
      'const { query } = ctx;',
      'var main = handler({ validateResponse: true, fn });',
      // a plain Lambda answer has a `body:` key too: kept (the define only matters to handler())
      'var main = async (event) => ({ statusCode: 200, body: event.body });',
    ]) {
      expect(routeOptionDefines(code), code).to.deep.equal({});
    }
  });
});
