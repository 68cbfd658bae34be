import { expect } from 'chai';
import type { RouteDefinition } from '@framework/core';
import { mapFunctionResult } from '../../src/dev/server/gateway-response.js';
import { RouteTable } from '../../src/dev/server/route-table.js';

const route = (method: RouteDefinition['method'], path: string): RouteDefinition => ({
  kind: 'route', id: `${method} ${path}`, file: '', functionName: '', memorySize: 128, timeout: 3, environment: {},
  method, path, routeKey: `${method} ${path}`, pathParams: [...path.matchAll(/\{(\w+)\+?\}/g)].map((m) => m[1]!),
});

describe('route table', () => {
  const table = new RouteTable([route('GET', '/tasks/{id}'), route('GET', '/tasks/export'), route('GET', '/files/{path+}'), route('PUT', '/tasks/{id}'), route('GET', '/')]);

  it('prefers a literal path over a parameter and a parameter over a greedy one, per method', () => {
    expect(table.match('GET', '/tasks/export')?.route.path).to.equal('/tasks/export');
    expect(table.match('GET', '/tasks/42')).to.deep.include({ pathParameters: { id: '42' } });
    expect(table.match('PUT', '/tasks/42')?.route.method).to.equal('PUT');
    expect(table.match('GET', '/files/a/b/c.txt')).to.deep.include({ pathParameters: { path: 'a/b/c.txt' } });
    expect(table.match('GET', '/')?.route.path).to.equal('/');
    expect(table.match('DELETE', '/tasks/42')).to.equal(undefined);
    expect(table.match('GET', '/tasks/42/more')).to.equal(undefined);
  });
});

describe('function result mapping (payload 2.0)', () => {
  it('passes a structured result through, with cookies and base64 bodies', () => {
    const mapped = mapFunctionResult({ statusCode: 201, headers: { 'X-Id': 7 }, cookies: ['a=1'], body: Buffer.from('hi').toString('base64'), isBase64Encoded: true });
    expect(mapped.statusCode).to.equal(201);
    expect(mapped.headers).to.deep.equal({ 'x-id': '7' });
    expect(mapped.cookies).to.deep.equal(['a=1']);
    expect(mapped.body).to.deep.equal(Buffer.from('hi'));
  });

  it('turns any other value into 200 application/json (a string as is)', () => {
    expect(mapFunctionResult({ ok: true })).to.deep.include({ statusCode: 200, body: '{"ok":true}', headers: { 'content-type': 'application/json' } });
    expect(mapFunctionResult('plain').body).to.equal('plain');
    expect(mapFunctionResult(null).body).to.equal('null');
  });
});
