import { expect } from 'chai';
import Fastify from 'fastify';
import type { AppDefinition } from '@framework/core';
import { EmbeddedCacheEngine } from '../../src/dev/engines/caches.js';

describe('embedded cache engine', () => {
  it('stores, reads, expires and deletes items at the endpoint it puts in FW_CACHE_<ID>_ENDPOINT', async () => {
    const engine = new EmbeddedCacheEngine();
    const app = { caches: [{ id: 'sessions' }] } as unknown as AppDefinition;
    const started = await engine.start(app, { baseUrl: 'http://127.0.0.1:3000' } as never);
    expect(started.outputs).to.deep.equal({ sessions: { endpoint: 'http://127.0.0.1:3000/_dev/caches/sessions' } });
    const server = Fastify();
    server.removeAllContentTypeParsers();
    server.addContentTypeParser('*', { parseAs: 'buffer' }, (_r, body, done) => done(null, body));
    await server.register(started.plugin!);
    try {
      const put = await server.inject({ method: 'PUT', url: '/_dev/caches/sessions/items/a', headers: { 'content-type': 'application/json' }, payload: '{"value":"1","ttlSeconds":0.05}' });
      expect(put.statusCode).to.equal(204);
      expect((await server.inject({ url: '/_dev/caches/sessions/items/a' })).json()).to.deep.equal({ value: '1' });
      await new Promise((resolve) => setTimeout(resolve, 80));
      expect((await server.inject({ url: '/_dev/caches/sessions/items/a' })).statusCode).to.equal(404);
      await server.inject({ method: 'PUT', url: '/_dev/caches/sessions/items/b', headers: { 'content-type': 'application/json' }, payload: '{"value":"2"}' });
      expect((await server.inject({ method: 'DELETE', url: '/_dev/caches/sessions/items/b' })).statusCode).to.equal(204);
      expect((await server.inject({ url: '/_dev/caches/sessions/items/b' })).statusCode).to.equal(404);
      expect((await server.inject({ url: '/_dev/caches/other/items/b' })).json().error.code).to.equal('CACHE_NOT_FOUND');
    } finally {
      await server.close();
      await engine.stop();
    }
  });
});
