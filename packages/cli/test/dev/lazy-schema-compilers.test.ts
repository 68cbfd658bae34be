import { spawnSync } from 'node:child_process';
import * as path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { expect } from 'chai';
import type { DevLogger } from '../../src/dev/engines/engine.js';
import { createHttpServer } from '../../src/dev/server/http-server.js';

const serverModule = pathToFileURL(path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'src', 'dev', 'server', 'http-server.ts')).href;
const silentLog = { info: () => undefined, warn: () => undefined, error: () => undefined, debug: () => undefined } as unknown as DevLogger;

/** Fastify loads Ajv and fast-json-stringify when created unless given compilers; the gateway loads them on first use. */
describe("fw dev's gateway loads Fastify's schema compilers only when a route has a schema", function () {
  this.timeout(60_000);

  it('creates and readies the gateway without loading Ajv or fast-json-stringify (a fresh process)', () => {
    const script = [
      `import { createRequire } from 'node:module';`,
      `const { createHttpServer } = await import(${JSON.stringify(serverModule)});`,
      `const fastify = await createHttpServer({});`,
      `fastify.get('/health', async () => ({ ok: true }));`,
      `await fastify.ready();`,
      `const loaded = Object.keys(createRequire(import.meta.url).cache);`,
      `console.log(JSON.stringify({ fastify: loaded.some((f) => f.includes('/fastify/fastify.js')), compilers: loaded.filter((f) => /\\/ajv\\/|ajv-compiler|fast-json-stringify-compiler|fast-json-stringify\\/index\\.js/.test(f)).length }));`,
      `await fastify.close();`,
    ].join('\n');
    const child = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { encoding: 'utf8', cwd: path.dirname(fileURLToPath(import.meta.url)) });
    expect(child.status, child.stderr).to.equal(0);
    const seen = JSON.parse(child.stdout.trim().split('\n').pop()!) as { fastify: boolean; compilers: number };
    // The record works: Fastify itself is in it (and the small serializer its default error answer uses).
    expect(seen.fastify).to.equal(true);
    expect(seen.compilers).to.equal(0);
  });

  it('still validates a body and serializes a response when a route declares schemas', async () => {
    const fastify = await createHttpServer(silentLog);
    fastify.post('/check', {
      schema: {
        body: { type: 'object', required: ['title'], properties: { title: { type: 'string' } } },
        response: { 200: { type: 'object', properties: { title: { type: 'string' } } } },
      },
    }, async (request) => ({ ...(request.body as object), secret: 'not in the schema' }));
    try {
      const bad = await fastify.inject({ method: 'POST', url: '/check', payload: { other: 1 } });
      expect(bad.statusCode).to.equal(400);
      const good = await fastify.inject({ method: 'POST', url: '/check', payload: { title: 't' } });
      expect(good.statusCode).to.equal(200);
      expect(good.json()).to.deep.equal({ title: 't' });
    } finally {
      await fastify.close();
    }
  });
});
