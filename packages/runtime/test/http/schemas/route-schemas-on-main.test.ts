import { routeSchemasOf } from '@framework/core/names';
import { expect } from 'chai';
import * as v from 'valibot';
import { z } from 'zod';
import { handler } from '../../../src/index.js';

describe('the schemas a handler declares, readable on main (routeSchemasOf)', () => {
  it('gives each declared part as declared, for zod and valibot alike, without invoking the handler', () => {
    const body = z.object({ title: z.string() });
    const query = v.object({ status: v.optional(v.string()) });
    const response = z.object({ id: z.string() });
    const main = handler({ body, query, response, scopes: ['tasks:write'], fn: async () => ({ id: '1' }) });
    const schemas = routeSchemasOf(main);
    expect(schemas).to.deep.equal({ body, query, response });
    expect(schemas.body).to.equal(body);
    // Not part of handlerInfo (which infra serializes) and not enumerable on main.
    expect(Object.keys(main.handlerInfo)).to.not.include('schemas');
    expect(Object.keys(main)).to.deep.equal(['handlerInfo']);
  });

  it('is empty for a handler without schemas, a plain function and a non-function', () => {
    expect(routeSchemasOf(handler(async () => ({ ok: true })))).to.deep.equal({});
    expect(routeSchemasOf(async () => ({ statusCode: 200 }))).to.deep.equal({});
    expect(routeSchemasOf(undefined)).to.deep.equal({});
  });
});
